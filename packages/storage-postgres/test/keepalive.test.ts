import { waitFor } from '@chainlens/testing';
import { describe, expect, it } from 'vitest';
import { postgresCoordinator, postgresStorage } from '../src/index.js';
import { namedSessions } from './backends.js';
import { testDatabaseUrl, testSchemas, withClient } from './database.js';
import { establishedTcpSockets } from './tcp-sockets.js';

const schemas = testSchemas();

// Both ends of each connection are read from the kernel's socket table, which only Linux lists.
describe.skipIf(process.platform !== 'linux')('TCP keepalive', () => {
  it('the lease, bus and pool connections probe a silent peer after keepAliveInitialDelayMillis, on the client and on the server', async () => {
    const database = await testDatabaseUrl();
    const sessions = namedSessions(database, 'keepalive');
    const options = { connectionString: sessions.url, schema: schemas.next(), keepAliveInitialDelayMillis: 3_000 };
    const storage = postgresStorage(options);
    const coordinator = postgresCoordinator(options);
    try {
      await storage.init();
      expect(await coordinator.acquireLease()).toBe(true);
      await coordinator.subscribe(() => undefined);
      await storage.ping();
      const { rows } = await withClient((client) =>
        client.query<{ port: number }>('SELECT client_port AS port FROM pg_stat_activity WHERE application_name = $1', [sessions.name]),
      );
      expect(rows.length).toBeGreaterThanOrEqual(3);

      const serverPort = Number(new URL(database).port || 5432);
      // Polled: right after a reply, the sender's timer is the retransmission one until the ACK.
      await waitFor(async () => {
        const sockets = await establishedTcpSockets();
        const wrong = rows.flatMap(({ port }) => {
          const ends = {
            client: sockets.find((s) => s.localPort === port && s.remotePort === serverPort),
            server: sockets.find((s) => s.localPort === serverPort && s.remotePort === port),
          };
          return Object.entries(ends)
            .filter(([, socket]) => socket?.timer !== 'keepalive' || socket.seconds > 3)
            .map(([end, socket]) => `${end} end of port ${port}: ${socket ? `${socket.timer} in ${socket.seconds} s` : 'not on this host'}`);
        });
        if (wrong.length > 0) throw new Error(wrong.join('; '));
        return true;
      }, 'a keepalive timer of at most 3 s on both ends of every connection', 5_000);
    } finally {
      await coordinator.close();
      await storage.close();
    }
  });
});
