import type { ChildProcess } from 'node:child_process';

/** Every anvil process started by this module that has not exited yet. */
const live = new Set<ChildProcess>();
let hooked = false;

/**
 * Registers a spawned child so it is terminated when this process exits, even if its owner
 * never called `stop()`. Signals are the application's business (a library that handled them
 * would pre-empt the app's own graceful shutdown): an app that wants its dev chain stopped on
 * SIGINT/SIGTERM handles the signal and exits, which lands here.
 */
export function trackChild(child: ChildProcess): void {
  if (child.pid === undefined) return; // spawn failed; nothing to clean up
  live.add(child);
  child.once('exit', () => live.delete(child));
  if (hooked) return;
  hooked = true;
  process.once('exit', killAll);
}

function killAll(): void {
  // SIGTERM rather than SIGKILL so anvil still writes its `--state` file on the way out.
  for (const child of live) child.kill('SIGTERM');
}
