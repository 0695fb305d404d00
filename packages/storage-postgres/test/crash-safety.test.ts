import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { createExplorer } from '@chainlens/core';
import { fillBlocks, startAnvil, type AnvilInstance } from '@chainlens/core/devchain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresStorage } from '../src/index.js';
import { testDatabaseUrl, testSchemas, withClient } from './database.js';

const CHILD = fileURLToPath(new URL('./fixtures/index-forever.ts', import.meta.url));
const schemas = testSchemas();

/** A seeded generator, so a failing run can be replayed (the seed is in the test name). */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

async function cursorOf(schema: string): Promise<bigint> {
  return withClient(async (client) => {
    const exists = await client.query(`SELECT to_regclass('${schema}.chain_state') IS NOT NULL AS ok`);
    if (!exists.rows[0].ok) return -1n;
    const { rows } = await client.query(`SELECT cursor_number::text AS n FROM ${schema}.chain_state`);
    return rows[0]?.n == null ? -1n : BigInt(rows[0].n);
  });
}

/** Every row of every ChainLens table, in primary-key order, as comparable text. */
async function contents(schema: string): Promise<Record<string, string[]>> {
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

describe('crash safety', () => {
  let node: AnvilInstance;
  let head: bigint;
  beforeAll(async () => {
    node = await startAnvil({ args: ['--gas-limit', '100000000'] });
    await fillBlocks({ rpcUrl: node.rpcUrl }, { blocks: 300, txPerBlock: 10 });
    const response = await fetch(node.rpcUrl, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'eth_blockNumber', params: [] }),
    });
    head = BigInt(((await response.json()) as { result: string }).result);
  });
  afterAll(() => node?.stop());

  const seed = Number(process.env.CRASH_SEED ?? 20261122);
  it(`SIGKILLed at random points (seed ${seed}) and restarted, ingest ends identical to an uninterrupted run`, async () => {
    const url = await testDatabaseUrl();
    const crashed = schemas.next();
    const next = random(seed);
    const run = async (killAfterMs: number | null) => {
      const child = spawn(process.execPath, ['--conditions=source', '--import', 'tsx', CHILD, node.rpcUrl, url, crashed], { stdio: ['ignore', 'pipe', 'inherit'] });
      const exited = once(child, 'exit');
      await once(child.stdout!, 'data');
      if (killAfterMs === null) while ((await cursorOf(crashed)) < head) await new Promise((resolve) => setTimeout(resolve, 50));
      else await new Promise((resolve) => setTimeout(resolve, killAfterMs));
      child.kill('SIGKILL');
      await exited;
    };
    let killsMidIngest = 0;
    for (let i = 0; i < 12; i++) {
      await run(10 + next() * 110);
      if ((await cursorOf(crashed)) < head) killsMidIngest++;
    }
    expect(killsMidIngest).toBeGreaterThanOrEqual(10);
    await run(null);

    const clean = schemas.next();
    const explorer = await createExplorer({ rpcUrl: node.rpcUrl, storage: postgresStorage({ connectionString: url, schema: clean }), logLevel: 'silent' });
    await explorer.start();
    while ((await explorer.storage.getCursor())?.number !== head) await new Promise((resolve) => setTimeout(resolve, 50));
    await explorer.close();

    const [a, b] = await Promise.all([contents(crashed), contents(clean)]);
    expect(Object.keys(a)).toEqual(Object.keys(b));
    expect(a.transactions).toHaveLength(3_000);
    for (const table of Object.keys(b)) expect(a[table], table).toEqual(b[table]);
  }, 300_000);
});
