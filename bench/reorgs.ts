/**
 * Reorg soak: the reorg suite's rounds (`@chainlens/core/testing`, see docs/indexing.md) for
 * `BENCH_REORG_ROUNDS` rounds (default 200) on memory and on Postgres (a schema of its own), each
 * against a fresh anvil, then every record compared with the node and the `blocks` stream checked.
 * The seed is `FUZZ_SEED` when set, else drawn and printed, so a failure replays with
 * `FUZZ_SEED=<n> npm run bench -- reorgs`. Reported per storage: rounds, reorgs the explorer
 * announced, blocks they removed, seconds. Target: every comparison holds.
 */
import { randomBytes, randomInt } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { chainlens } from '@chainlens/adapter-fastify';
import { handleClientError, type Explorer, type Storage } from '@chainlens/core';
import { expectCanonical, expectReorgStream, reorgPlan, runPlan, startReorgRun, type ServedApi } from '@chainlens/testing';
import { memoryStorage } from '@chainlens/storage-memory';
import { postgresStorage } from '@chainlens/storage-postgres';
import Fastify from 'fastify';
import { WebSocket } from 'ws';
import { envInt } from './lib/env.js';
import { benchDatabase, dropSchema } from './lib/postgres.js';
import { describeMachine, printTable, writeResults } from './lib/report.js';

async function serve(explorer: Explorer): Promise<ServedApi> {
  const app = Fastify({ clientErrorHandler: handleClientError });
  await app.register(chainlens, { explorer });
  await app.listen({ host: '127.0.0.1', port: 0 });
  return { url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`, close: () => app.close() };
}

interface Row {
  storage: string;
  rounds: number;
  reorgs: number;
  removedBlocks: number;
  seconds: number;
  failure: string | null;
}

/** Plays `rounds` rounds of `seed` on `storage` and compares; resolves the row (its failure, if any). */
async function soak(name: string, storage: () => Storage, seed: number, rounds: number): Promise<Row> {
  const started = performance.now();
  const run = await startReorgRun({ name, storage, serve, WebSocket });
  let failure: string | null = null;
  try {
    const orphans = await runPlan(run, reorgPlan(seed, rounds));
    await run.indexed();
    await expectReorgStream(run, await expectCanonical(run, orphans), orphans);
  } catch (error) {
    failure = error instanceof Error ? error.message : String(error);
  } finally {
    await run.close();
  }
  const removedBlocks = run.reorgs.reduce((sum, event) => sum + event.removedBlockHashes.length, 0);
  return { storage: name, rounds, reorgs: run.reorgs.length, removedBlocks, seconds: (performance.now() - started) / 1000, failure };
}

/** Runs the soak on both storages, prints and saves it; resolves whether every comparison held. */
export async function runReorgs(): Promise<boolean> {
  const rounds = envInt('BENCH_REORG_ROUNDS', 200);
  const seed = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : randomInt(1, 2 ** 31);
  console.log(`reorg soak: ${rounds} rounds per storage, seed ${seed} (replay with FUZZ_SEED=${seed})`);
  const machine = describeMachine();
  const rows = [await soak('memory', () => memoryStorage(), seed, rounds)];
  const database = await benchDatabase();
  const schema = `bench_reorgs_${randomBytes(4).toString('hex')}`;
  try {
    rows.push(await soak('postgres', () => postgresStorage({ connectionString: database.url, schema }), seed, rounds));
  } finally {
    await dropSchema(database.url, schema);
    await database.stop();
  }
  printTable(
    `Reorg soak (seed ${seed})`,
    ['storage', 'rounds', 'reorgs announced', 'blocks removed', 'seconds', 'verdict'],
    rows.map((row) => [row.storage, row.rounds, row.reorgs, row.removedBlocks, row.seconds, row.failure === null ? 'PASS' : 'FAIL']),
  );
  for (const row of rows) if (row.failure !== null) console.log(`\n${row.storage} (FUZZ_SEED=${seed}):\n${row.failure}`);
  const passed = rows.every((row) => row.failure === null);
  await writeResults('reorgs', { machine, settings: { rounds, seed }, rows, verdict: passed ? 'PASS' : 'FAIL' });
  return passed;
}
