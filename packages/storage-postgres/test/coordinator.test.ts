import { waitFor } from '@chainlens/testing';
import pg from 'pg';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { postgresCoordinator } from '../src/index.js';
import { testDatabaseUrl, testSchemas } from './database.js';

const schemas = testSchemas();

describe('postgresCoordinator', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('sends notifications published without waiting one at a time, in order, never queuing a query behind a running one', async () => {
    const options = { connectionString: await testDatabaseUrl(), schema: schemas.next() };
    const [writer, reader] = [postgresCoordinator(options), postgresCoordinator(options)];
    try {
      const heard: string[] = [];
      await reader.subscribe((message) => heard.push(message));
      expect(await writer.acquireLease()).toBe(true);
      // Queries each client has in flight at once, as the writer's blocks are announced.
      const inFlight = new Map<pg.Client, number>();
      let most = 0;
      const query = pg.Client.prototype.query;
      vi.spyOn(pg.Client.prototype, 'query').mockImplementation(function (this: pg.Client, ...args: unknown[]) {
        const running = (inFlight.get(this) ?? 0) + 1;
        inFlight.set(this, running);
        most = Math.max(most, running);
        const settled = () => inFlight.set(this, inFlight.get(this)! - 1);
        const result = (query as (...a: unknown[]) => Promise<unknown>).apply(this, args);
        void result.then(settled, settled);
        return result as never;
      });
      const messages = Array.from({ length: 50 }, (_, i) => `block ${i}`);
      await Promise.all(messages.map((message) => writer.publish(message)));
      expect(most).toBe(1);
      await waitFor(() => heard.length === messages.length, 'every notification');
      expect(heard).toEqual(messages);
    } finally {
      await Promise.all([writer.close(), reader.close()]);
    }
  });
});
