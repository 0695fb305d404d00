import { setTimeout as delay } from 'node:timers/promises';
import type { Explorer } from '@chainlens/core';

/**
 * Resolves once `explorer` has stored block `target`. Polls every few ms (cheap against memory
 * storage, and precise enough for runs of seconds). Throws, with the indexer's last error, when
 * the cursor has not moved for `stallMs`, so a broken run fails instead of hanging.
 */
export async function waitForCursor(explorer: Explorer, target: bigint, stallMs = 30_000): Promise<void> {
  let seen: bigint | undefined;
  let movedAt = performance.now();
  for (;;) {
    const cursor = (await explorer.storage.getCursor())?.number;
    if (cursor !== undefined && cursor >= target) return;
    if (cursor !== seen) {
      seen = cursor;
      movedAt = performance.now();
    } else if (performance.now() - movedAt > stallMs) {
      const reason = explorer.indexer.status.lastError ?? 'no error reported';
      throw new Error(`indexing stalled at block ${cursor ?? 'none'} of ${target}: ${reason}`);
    }
    await delay(5);
  }
}
