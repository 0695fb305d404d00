import { readFileSync } from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import { memoryStorage } from '@chainlens/storage-memory';
import { describe, expect, it } from 'vitest';
import { createExplorer } from '../explorer.js';

/** Times this thread has slept and been woken so far (Linux counts them per thread). */
const wakeups = () => Number(/voluntary_ctxt_switches:\s+(\d+)/.exec(readFileSync('/proc/thread-self/status', 'utf8'))![1]);

describe('ExplorerMetrics', () => {
  // The event-loop lag sampler is the one timer metrics keep: at prom-client's 10 ms it woke the
  // process about 100 times a second (86 measured here), so an idle explorer cost CPU and every
  // busy one an extra turn of its loop every 10 ms.
  it.runIf(process.platform === 'linux')('samples the event-loop lag without waking an idle process more than a few times a second', async () => {
    // Not started and without rate limits: no indexer polling and no counter beat, only what metrics hold.
    const explorer = await createExplorer({ rpcUrl: 'http://127.0.0.1:9', storage: memoryStorage(), logLevel: 'silent', rateLimits: { enabled: false } });
    try {
      expect(explorer.metrics).not.toBeNull();
      const before = wakeups();
      await delay(1_000);
      expect(wakeups() - before).toBeLessThan(25);
    } finally {
      await explorer.close();
    }
  });
});
