import { blockTracesProblem, type BlockTraces, type Hex } from '@chainlens/core';
import type { PoolClient } from 'pg';
import { webhooksActiveColumn } from './chain-state.js';
import { byteaArray, integerArray, toDecimal } from './codec.js';
import type { Statement } from './queries.js';
import type { Tables } from './tables.js';

/**
 * The statements of {@link writeBlockTraces}: the trace cursor under the chain_state lock every
 * writer takes, the traced blocks and (of blocks with rows to write) their transactions to check
 * the traces against, and one statement inserting every block's rows and moving the cursor
 * ($1–$6 creation columns, $7–$19 internal transaction columns, $20 the last block).
 */
export function writeTracesStatements(t: Tables) {
  return {
    lockCursors: {
      name: 'chainlens_lock_trace_cursor',
      text: `SELECT cursor_number AS cursor, traced_number AS traced, ${webhooksActiveColumn(t)} FROM ${t.chainState} FOR UPDATE`,
    },
    blocks: {
      name: 'chainlens_traced_blocks',
      text: `SELECT number, hash, timestamp FROM ${t.blocks} WHERE number BETWEEN $1 AND $2 ORDER BY number`,
    },
    transactions: {
      name: 'chainlens_traced_transactions',
      text: `SELECT block_number AS "blockNumber", transaction_index AS "transactionIndex", hash
        FROM ${t.transactions} WHERE block_number = ANY($1::int8[]) ORDER BY block_number, transaction_index`,
    },
    write: {
      name: 'chainlens_write_traces',
      text: `WITH contracts AS (
          INSERT INTO ${t.contractCreations} (block_number, transaction_index, trace_index, address, creator, transaction_hash)
          SELECT * FROM unnest($1::int8[], $2::int4[], $3::int4[], $4::bytea[], $5::bytea[], $6::bytea[])
        ), internal_transactions AS (
          INSERT INTO ${t.internalTransactions} (block_number, timestamp, transaction_index, trace_index, trace_id,
            transaction_hash, type, from_address, to_address, value, gas, gas_used, error)
          SELECT * FROM unnest($7::int8[], $8::int8[], $9::int4[], $10::int4[], $11::text[], $12::bytea[], $13::text[],
            $14::bytea[], $15::bytea[], $16::numeric[], $17::numeric[], $18::numeric[], $19::text[])
        )
        UPDATE ${t.chainState} SET traced_number = $20`,
    },
  } satisfies Record<string, Statement>;
}

export type WriteTracesStatements = ReturnType<typeof writeTracesStatements>;

/**
 * Writes the traces of consecutive blocks from the one after the trace cursor in the caller's
 * transaction, and moves the trace cursor to the last: checked first against the blocks and
 * transactions as stored (else it throws, having written nothing). Resolves whether any webhook
 * is active (read under the lock): only then are the traces matched against the webhooks.
 */
export async function writeBlockTraces(client: PoolClient, s: WriteTracesStatements, traces: BlockTraces[]): Promise<boolean> {
  if (traces.length === 0) return false;
  const { rows: cursors } = await client.query<{ cursor: bigint | null; traced: bigint | null; webhooksActive: boolean }>(s.lockCursors);
  const traced = cursors[0]?.traced ?? null;
  const first = traces[0]!.blockNumber;
  const last = first + BigInt(traces.length - 1);
  const { rows: blocks } = traced === null ? { rows: [] } : await client.query<{ number: bigint; hash: Hex; timestamp: bigint }>({ ...s.blocks, values: [toDecimal(first), toDecimal(last)] });
  const withRows = traces.filter((entry) => entry.contracts.length > 0 || entry.internalTransactions.length > 0).map((entry) => toDecimal(entry.blockNumber));
  const { rows: transactions } =
    withRows.length === 0 ? { rows: [] } : await client.query<{ blockNumber: bigint; transactionIndex: number; hash: Hex }>({ ...s.transactions, values: [`{${withRows.join(',')}}`] });
  const transactionsOf = new Map<bigint, { transactionIndex: number; hash: Hex }[]>();
  for (const tx of transactions) transactionsOf.set(tx.blockNumber, [...(transactionsOf.get(tx.blockNumber) ?? []), tx]);
  traces.forEach((entry, i) => {
    const block = blocks[i];
    if (traced === null || block === undefined || entry.blockNumber !== traced + 1n + BigInt(i)) {
      throw new Error(`writeBlockTraces: block ${entry.blockNumber} is not the next written block to trace (the trace cursor is ${traced}, the cursor ${cursors[0]?.cursor ?? null})`);
    }
    const problem = blockTracesProblem(entry, { block, transactions: transactionsOf.get(block.number) ?? [] });
    if (problem) throw new Error(`writeBlockTraces: ${problem}`);
  });
  const contracts = traces.flatMap((entry) => entry.contracts);
  const internal = traces.flatMap((entry) => entry.internalTransactions);
  await client.query({
    ...s.write,
    values: [
      integerArray(contracts.map((x) => x.blockNumber)), integerArray(contracts.map((x) => x.transactionIndex)),
      integerArray(contracts.map((x) => x.traceIndex)), byteaArray(contracts.map((x) => x.address)),
      byteaArray(contracts.map((x) => x.creator)), byteaArray(contracts.map((x) => x.transactionHash)),

      integerArray(internal.map((x) => x.blockNumber)), integerArray(internal.map((x) => x.timestamp)),
      integerArray(internal.map((x) => x.transactionIndex)), integerArray(internal.map((x) => x.traceIndex)),
      internal.map((x) => x.traceId), byteaArray(internal.map((x) => x.transactionHash)), internal.map((x) => x.type),
      byteaArray(internal.map((x) => x.from)), byteaArray(internal.map((x) => x.to)), integerArray(internal.map((x) => x.value)),
      integerArray(internal.map((x) => x.gas)), integerArray(internal.map((x) => x.gasUsed)), internal.map((x) => x.error),

      toDecimal(last),
    ],
  });
  return cursors[0]?.webhooksActive ?? false;
}
