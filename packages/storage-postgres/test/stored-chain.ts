import { createExplorer } from '@chainlens/core';
import { fillBlocks, startAnvil, type AnvilInstance } from '@chainlens/devchain';
import { indexedThrough, waitFor } from '@chainlens/testing';
import { afterAll, beforeAll } from 'vitest';
import { postgresStorage } from '../src/index.js';
import { testDatabaseUrl, withClient } from './database.js';

/**
 * The chain the ingest tests index: an anvil with 300 blocks of 10 transactions, started before
 * the calling file's tests and stopped after them.
 */
export function filledChain(): { readonly rpcUrl: string; readonly head: bigint } {
  let node: AnvilInstance | undefined;
  let head = -1n;
  beforeAll(async () => {
    node = await startAnvil({ args: ['--gas-limit', '100000000'] });
    await fillBlocks({ rpcUrl: node.rpcUrl }, { blocks: 300, txPerBlock: 10 });
    head = await chainHead(node.rpcUrl);
  });
  afterAll(() => node?.stop());
  return {
    get rpcUrl() {
      if (!node) throw new Error('filledChain: read before its beforeAll ran');
      return node.rpcUrl;
    },
    get head() {
      return head;
    },
  };
}

/** The node's head block number. */
export async function chainHead(rpcUrl: string): Promise<bigint> {
  const response = await fetch(rpcUrl, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] }),
  });
  return BigInt(((await response.json()) as { result: string }).result);
}

/** The cursor of `schema` as stored (-1 before the first block or the first migration). */
export async function cursorOf(schema: string): Promise<bigint> {
  return (await cursorsOf(schema)).cursor;
}

/**
 * The block cursor and the trace cursor of `schema` as stored (-1 before the first block or the
 * first migration): a run is whole when both reached its head.
 */
export async function cursorsOf(schema: string): Promise<{ cursor: bigint; traced: bigint }> {
  return withClient(async (client) => {
    const exists = await client.query(`SELECT to_regclass('${schema}.chain_state') IS NOT NULL AS ok`);
    if (!exists.rows[0].ok) return { cursor: -1n, traced: -1n };
    const { rows } = await client.query(`SELECT cursor_number::text AS cursor, traced_number::text AS traced FROM ${schema}.chain_state`);
    const parse = (value: string | null | undefined) => (value == null ? -1n : BigInt(value));
    return { cursor: parse(rows[0]?.cursor), traced: parse(rows[0]?.traced) };
  });
}

/** Whether `schema` holds blocks and their traces through `head`. */
export async function wholeThrough(schema: string, head: bigint): Promise<boolean> {
  const { cursor, traced } = await cursorsOf(schema);
  return cursor === head && traced === head;
}

/** Every row of every ChainLens table, in primary-key order, as comparable text. */
export async function contents(schema: string): Promise<Record<string, string[]>> {
  return withClient(async (client) => {
    const tables = await client.query(
      `SELECT table_name FROM information_schema.tables WHERE table_schema = $1 AND table_name <> 'schema_migrations' ORDER BY 1`,
      [schema],
    );
    const result: Record<string, string[]> = {};
    for (const { table_name: table } of tables.rows as { table_name: string }[]) {
      const { rows } = await client.query(`SELECT t::text AS row FROM ${schema}.${table} t ORDER BY 1`);
      result[table] = rows.map((r: { row: string }) => r.row);
    }
    return result;
  });
}

/**
 * Indexes `rpcUrl` into the fresh `schema` up to `head` with nothing in the way: the run a
 * disturbed one is compared with.
 */
export async function indexUninterrupted(rpcUrl: string, schema: string, head: bigint): Promise<void> {
  const explorer = await createExplorer({ rpcUrl, storage: postgresStorage({ connectionString: await testDatabaseUrl(), schema }), logLevel: 'silent' });
  try {
    await explorer.start();
    await waitFor(() => indexedThrough(explorer, head), `the uninterrupted run to reach block ${head}`, 120_000);
  } finally {
    await explorer.close();
  }
}
