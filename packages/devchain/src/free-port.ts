import { createServer, type AddressInfo } from 'node:net';

/**
 * Asks the OS for a currently free TCP port on `host`. Anvil rejects `--port 0`, so we bind
 * port 0 ourselves, read the assigned port and release it; another process may still take it
 * before anvil binds it, which is why {@link startAnvil} retries on "address in use".
 */
export async function findFreePort(host = '127.0.0.1'): Promise<number> {
  return listenOnce(0, host);
}

/** Whether `port` on `host` can be bound right now. */
export async function isPortFree(port: number, host = '127.0.0.1'): Promise<boolean> {
  try {
    await listenOnce(port, host);
    return true;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') return false;
    throw error;
  }
}

function listenOnce(port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(port, host, () => {
      const bound = (server.address() as AddressInfo).port;
      server.close(() => resolve(bound));
    });
  });
}
