import { describe, expect, it } from 'vitest';
import { TOPIC_PAIRS, type LogsQuery, type TopicOperator, type TopicPair } from '@chainlens/core';
import { logsStatement } from './log-topic-queries.js';
import { qualifiedTables } from './tables.js';

const TOPIC = `0x${'11'.repeat(32)}` as const;
const CONTRACT = `0x${'22'.repeat(20)}` as const;

/** Every shape a log search can take: with or without a contract, any topics, any operators. */
function everyShape(): LogsQuery[] {
  const shapes: LogsQuery[] = [];
  for (const address of [undefined, CONTRACT]) {
    for (let mask = 1; mask < 16; mask++) {
      const topics = [0, 1, 2, 3].map((position) => (mask & (1 << position) ? TOPIC : undefined));
      for (let choice = 0; choice < 1 << TOPIC_PAIRS.length; choice++) {
        const operators: Partial<Record<TopicPair, TopicOperator>> = {};
        TOPIC_PAIRS.forEach(([pair], i) => (operators[pair] = choice & (1 << i) ? 'or' : 'and'));
        shapes.push({ ...(address ? { address } : {}), topics, operators, page: 1, offset: 10 });
      }
    }
  }
  return shapes;
}

describe('log search statements', () => {
  it('name each distinct statement distinctly within the 63 bytes Postgres keeps of a name', () => {
    const tables = qualifiedTables('public');
    const byName = new Map<string, string>();
    // Each shape twice: the log page alone, and with its transactions' gas (getLogs).
    for (const query of everyShape()) {
      for (const gas of [false, true]) {
        const { name, text } = logsStatement(tables, query, gas);
        expect(Buffer.byteLength(name!)).toBeLessThanOrEqual(63);
        const seen = byName.get(name!);
        if (seen !== undefined) expect(text).toBe(seen);
        byName.set(name!, text);
      }
    }
    expect(new Set(byName.values()).size).toBe(byName.size);
  });
});
