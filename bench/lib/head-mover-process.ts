/**
 * The head mover's process (see `createHeadMover`): started with its settings in
 * `CHAINLENS_BENCH_MOVER`, it answers `ready`, writes a block every interval from each `start` to
 * the next `stop` (answering `stopped`), each row's blocks following the last row's; at `close`
 * it rolls every block it wrote back and answers `closed`. It exits when the benchmark disconnects.
 */
import { announceBlock } from '@chainlens/core';
import { postgresCoordinator, postgresStorage } from '@chainlens/storage-postgres';
import type { FromMover, MoverSettings, ToMover } from './head-mover.js';
import { syntheticChain } from './synthetic-chain.js';

const { url, schema, chain } = JSON.parse(process.env.CHAINLENS_BENCH_MOVER!) as MoverSettings;
const send = (message: FromMover) => process.send!(message);

try {
  // The generator is sequential (one random stream): walk to the load's end, then draw the
  // blocks that follow it one at a time, however many rows ask for.
  const blocks = syntheticChain({ ...chain, blocks: Number.MAX_SAFE_INTEGER });
  for (let skipped = 0; skipped < chain.blocks; skipped++) blocks.next();
  const storage = postgresStorage({ connectionString: url, schema });
  await storage.init();
  // The one writer of the schema, like an indexing instance: it holds the lease it publishes on.
  const bus = postgresCoordinator({ connectionString: url, schema });
  if (!(await bus.acquireLease())) throw new Error(`another process holds the indexer lease of ${schema}`);
  const lastLoaded = BigInt(chain.blocks - 1);

  let timer: NodeJS.Timeout | undefined;
  let written = 0;
  let writing: Promise<void> = Promise.resolve();
  // A failed write is told at the stop that follows it; left to reject, it would end the process
  // with no message but its exit code.
  let failure: unknown = null;
  /** Answers `reply` once the writes so far are done, or the first failure among them. */
  const settle = (reply: FromMover) =>
    void writing
      .then(() => {
        if (failure !== null) throw failure;
      })
      .then(
        () => send(reply),
        (error: unknown) => send({ type: 'failed', message: String(error) }),
      );
  process.on('message', (message: ToMover) => {
    if (message.type === 'start') {
      written = 0;
      timer = setInterval(() => {
        const bundle = blocks.next().value!;
        written++;
        writing = writing
          .then(async () => {
            if (failure !== null) return;
            await storage.writeBlock(bundle);
            await announceBlock(bus, bundle.block.number);
          })
          .catch((error: unknown) => {
            failure = error;
          });
      }, 1_000);
    } else if (message.type === 'stop') {
      clearInterval(timer);
      settle({ type: 'stopped', written });
    } else {
      clearInterval(timer);
      writing = writing.then(() => storage.rollbackTo(lastLoaded));
      settle({ type: 'closed' });
    }
  });
  process.on('disconnect', () => {
    clearInterval(timer);
    void Promise.all([bus.close(), storage.close()]).finally(() => process.exit(0));
  });
  send({ type: 'ready' });
} catch (error) {
  send({ type: 'failed', message: String(error) });
  process.exit(1);
}
