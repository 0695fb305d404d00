import type { ChildProcess } from 'node:child_process';

/** Every anvil process started by this module that has not exited yet. */
const live = new Set<ChildProcess>();
let hooked = false;

/**
 * Registers a spawned child so it is terminated when this process exits or is stopped by a
 * signal, even if its owner never called `stop()`.
 */
export function trackChild(child: ChildProcess): void {
  if (child.pid === undefined) return; // spawn failed; nothing to clean up
  live.add(child);
  child.once('exit', () => live.delete(child));
  if (hooked) return;
  hooked = true;
  process.once('exit', killAll);
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, onSignal);
}

function killAll(): void {
  // SIGTERM rather than SIGKILL so anvil still writes its `--state` file on the way out.
  for (const child of live) child.kill('SIGTERM');
}

function onSignal(signal: NodeJS.Signals): void {
  killAll();
  // A signal listener suppresses Node's default "terminate"; re-raise it unless someone else
  // handles the signal (then the process's own shutdown logic decides).
  if (process.listenerCount(signal) === 1) {
    process.removeListener(signal, onSignal);
    process.kill(process.pid, signal);
  }
}
