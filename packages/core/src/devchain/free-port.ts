import { createServer, type AddressInfo } from 'node:net';

/**
 * Asks the OS for a currently free TCP port on `host`. Anvil rejects `--port 0`, so we bind
 * port 0 ourselves, read the assigned port and release it; a race with another process is
 * possible, which is why {@link startAnvil} retries on "address in use".
 */
export function findFreePort(host = '127.0.0.1'): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, host, () => {
      const { port } = server.address() as AddressInfo;
      server.close(() => resolve(port));
    });
  });
}
