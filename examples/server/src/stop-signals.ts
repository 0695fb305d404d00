import type { Logger } from 'pino';

/**
 * A terminal's Ctrl-C reaches both this process and npm, which forwards it again: one keypress,
 * two signals this close together. A later one is the operator insisting.
 */
const SAME_KEYPRESS_MS = 1_000;
/** How long a graceful stop may take before the process exits anyway ("within a few seconds"). */
const GRACE_MS = 5_000;

/**
 * Stops the server on SIGINT or SIGTERM: runs `stop` (closing the server, the explorer and the
 * dev chain), then exits 0. A second signal, or a stop still running after a few seconds, exits 1
 * at once. Every exit lands in the dev chain's exit hook, which ends anvil. Returns whether a
 * stop has begun, for a start-up still under way to give up.
 */
export function stopOnSignals(stop: () => Promise<void>, logger: Logger): () => boolean {
  let stoppingSince: number | null = null;
  const onSignal = (signal: NodeJS.Signals) => {
    if (stoppingSince === null) {
      stoppingSince = Date.now();
      logger.info({ signal }, 'shutting down');
      setTimeout(() => {
        logger.warn({ graceMs: GRACE_MS }, 'the shutdown did not finish in time: exiting');
        process.exit(1);
      }, GRACE_MS).unref();
      void stop().then(() => process.exit(0));
      return;
    }
    if (Date.now() - stoppingSince < SAME_KEYPRESS_MS) return;
    logger.warn({ signal }, 'a second signal: exiting without finishing the shutdown');
    process.exit(1);
  };
  process.on('SIGINT', onSignal);
  process.on('SIGTERM', onSignal);
  return () => stoppingSince !== null;
}
