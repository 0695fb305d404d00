import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { bundleChild } from './child-bundle.js';
import { testDatabaseUrl, testSchemas } from './database.js';
import { contents, cursorOf, filledChain, indexUninterrupted, wholeThrough } from './stored-chain.js';

const CHILD_SOURCE = fileURLToPath(new URL('./fixtures/index-forever.ts', import.meta.url));
/** The child's entry bundled (see `bundleChild`): each start of it costs a fraction of tsx's. */
let CHILD: string;
beforeAll(async () => {
  CHILD = await bundleChild(CHILD_SOURCE);
});
const schemas = testSchemas();

/** A seeded generator, so a failing run can be replayed (the seed is in the test name). */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

describe('crash safety', () => {
  const chain = filledChain();

  const seed = Number(process.env.CRASH_SEED ?? 20261122);
  it(`SIGKILLed at random points (seed ${seed}) and restarted, ingest ends identical to an uninterrupted run`, async () => {
    const url = await testDatabaseUrl();
    const crashed = schemas.next();
    const next = random(seed);
    const run = async (killAfterMs: number | null) => {
      const child = spawn(process.execPath, ['--conditions=source', CHILD, chain.rpcUrl, url, crashed], { stdio: ['ignore', 'pipe', 'inherit'] });
      const exited = once(child, 'exit');
      await once(child.stdout!, 'data');
      if (killAfterMs === null) while (!(await wholeThrough(crashed, chain.head))) await new Promise((resolve) => setTimeout(resolve, 50));
      else await new Promise((resolve) => setTimeout(resolve, killAfterMs));
      child.kill('SIGKILL');
      await exited;
    };
    let killsMidIngest = 0;
    for (let i = 0; i < 12; i++) {
      await run(10 + next() * 110);
      if ((await cursorOf(crashed)) < chain.head) killsMidIngest++;
    }
    expect(killsMidIngest).toBeGreaterThanOrEqual(10);
    await run(null);

    const clean = schemas.next();
    await indexUninterrupted(chain.rpcUrl, clean, chain.head);

    const [a, b] = await Promise.all([contents(crashed), contents(clean)]);
    expect(Object.keys(a)).toEqual(Object.keys(b));
    expect(a.transactions).toHaveLength(3_000);
    for (const table of Object.keys(b)) expect(a[table], table).toEqual(b[table]);
  }, 300_000);
});
