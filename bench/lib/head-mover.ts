import { fork, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { fileURLToPath } from 'node:url';
import type { SyntheticChainOptions } from './synthetic-chain.js';

/** A chain that keeps growing while a row is measured, as a followed live chain does. */
export interface HeadMover {
  /** Appends one block a second until the returned function stops it; resolves the blocks it wrote. */
  start(): () => Promise<number>;
  /** Rolls back every block written since the mover was created, then ends its process. */
  close(): Promise<void>;
}

/** What the benchmark asks of the mover process. */
export type ToMover = { type: 'start' } | { type: 'stop' } | { type: 'close' };
/** What the mover process answers: once ready, then the blocks written at each stop, and at the close once they are rolled back. */
export type FromMover = { type: 'ready' } | { type: 'stopped'; written: number } | { type: 'closed' } | { type: 'failed'; message: string };

/** The arguments the mover process is started with (as JSON in its environment). */
export interface MoverSettings {
  url: string;
  schema: string;
  chain: SyntheticChainOptions;
}

/**
 * Writes the synthetic chain's next blocks into a loaded `schema`, one a second, through
 * `Storage.writeBlock`, and announces each on the schema's bus, as an indexing instance of a
 * cluster would: the server sees its head move (and its response cache start afresh for every
 * answer the block may change) as often as on a chain with that block time.
 *
 * Rows do not roll their blocks back: each row's first block is the child of the last row's last,
 * so a server measured over several rows hears one unbroken line of blocks, as it does on a live
 * chain. (Rolled back between rows, the same numbers would be written again with no reorg heard,
 * and a server would take the break for a reorg and start every row cold.) Closing rolls all the
 * added blocks back, so a kept load stays as it was loaded.
 *
 * The writer runs in a process of its own, as an indexer runs apart from the clients: building
 * and sending a block takes tens of milliseconds of CPU, and in the load generator's event loop
 * that time would be counted in the latency of every request in flight.
 */
export async function createHeadMover(url: string, schema: string, chain: SyntheticChainOptions): Promise<HeadMover> {
  const settings: MoverSettings = { url, schema, chain };
  const child = fork(fileURLToPath(new URL('./head-mover-process.ts', import.meta.url)), [], {
    env: { ...process.env, CHAINLENS_BENCH_MOVER: JSON.stringify(settings) },
    execArgv: ['--import', 'tsx'],
  });
  await answer(child, 'ready');
  return {
    start() {
      child.send({ type: 'start' } satisfies ToMover);
      return async () => {
        const stopped = answer(child, 'stopped');
        child.send({ type: 'stop' } satisfies ToMover);
        return (await stopped).written;
      };
    },
    async close() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = once(child, 'exit');
      try {
        const closed = answer(child, 'closed');
        child.send({ type: 'close' } satisfies ToMover);
        await closed;
      } finally {
        if (child.connected) child.disconnect();
        await exited;
      }
    },
  };
}

/** The mover's next message, which must be of `type`; a failure or an early exit rejects. */
async function answer<T extends FromMover['type']>(child: ChildProcess, type: T): Promise<Extract<FromMover, { type: T }>> {
  // The listener of the race's loser is removed, so a mover started many times gathers none.
  const settled = new AbortController();
  const { signal } = settled;
  const message = await Promise.race([
    once(child, 'message', { signal }).then(([reply]) => reply as FromMover),
    once(child, 'exit', { signal }).then(([code]) => ({ type: 'failed', message: `the head mover exited (code ${code})` }) as const),
  ]).finally(() => settled.abort());
  if (message.type === 'failed') throw new Error(message.message);
  if (message.type !== type) throw new Error(`the head mover answered ${message.type}, expected ${type}`);
  return message as Extract<FromMover, { type: T }>;
}
