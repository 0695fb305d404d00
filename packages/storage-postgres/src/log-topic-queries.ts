import { givenTopicPositions, TOPIC_PAIRS, type LogsQuery } from '@chainlens/core';
import { LOG_COLUMNS, LOG_WITH_GAS_COLUMNS, type Statement } from './queries.js';
import type { Tables } from './tables.js';

/**
 * The statement of one shape of log search (contract or not, which topics, which operators),
 * named after it so each shape is prepared once per connection. Its values are, in order: start
 * block, end block, limit, offset, then the contract if given, then each given topic.
 *
 * The page is cut on the logs alone and only its rows join their transaction. Each topic
 * condition is `topicN = $k`, which the partial indexes `logs_by_topicN` (topic, block, log
 * index) answer in chain order: a required topic lets the page be read off one index, `or`
 * clauses are a bitmap union of several. With `gas`, each row also carries its transaction's
 * block time and gas (what getLogs shows), read by the same join.
 */
export function logsStatement(t: Tables, query: LogsQuery, gas = false): Statement {
  const given = givenTopicPositions(query);
  let next = 5;
  const conditions: string[] = [];
  if (query.address !== undefined) conditions.push(`address = $${next++}`);
  const parameter = new Map(given.map((position) => [position, `$${next++}`] as const));
  const is = (position: number) => `topic${position} = ${parameter.get(position)}::bytea`;
  if (given.length === 1) conditions.push(is(given[0]!));
  // Compact, because Postgres cuts a statement's name at 63 bytes and two shapes cut alike would
  // clash on one connection: `c`/`x` for with or without a contract, the given positions, then
  // each joined pair with `a` (and) or `o` (or), then `g` when it reads the gas.
  const shape: string[] = [`${query.address === undefined ? 'x' : 'c'}${given.join('')}`];
  for (const [pair, a, b] of TOPIC_PAIRS) {
    if (!parameter.has(a) || !parameter.has(b) || given.length === 1) continue;
    const operator = query.operators[pair] ?? 'and';
    conditions.push(operator === 'and' ? `${is(a)} AND ${is(b)}` : `(${is(a)} OR ${is(b)})`);
    shape.push(`${a}${b}${operator === 'and' ? 'a' : 'o'}`);
  }
  return {
    name: `chainlens_logs_${shape.join('_')}${gas ? '_g' : ''}`,
    text: `SELECT ${gas ? LOG_WITH_GAS_COLUMNS : LOG_COLUMNS}
      FROM (
        SELECT * FROM ${t.logs}
        WHERE block_number BETWEEN $1 AND $2 AND ${conditions.join(' AND ')}
        ORDER BY block_number, log_index
        LIMIT $3 OFFSET $4
      ) l
      JOIN ${t.transactions} t ON t.block_number = l.block_number AND t.transaction_index = l.transaction_index
      ORDER BY l.block_number, l.log_index`,
  };
}
