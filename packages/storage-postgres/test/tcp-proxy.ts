import { connect, createServer, type AddressInfo, type Socket } from 'node:net';

/** A TCP relay in front of the test database, which a test can make unreachable and reachable again. */
export interface TcpProxy {
  /** `url` with its host and port replaced by the relay's. */
  readonly url: string;
  /** Closes every new connection at once, as a server that went away would (open ones stay). */
  refuse(): void;
  /** Relays new connections again. */
  accept(): void;
  close(): Promise<void>;
}

/** Starts a relay on a free local port to the host and port of the postgres:// `url`. */
export async function startTcpProxy(url: string): Promise<TcpProxy> {
  const target = new URL(url);
  const sockets = new Set<Socket>();
  let refusing = false;
  const track = (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  };
  const server = createServer((client) => {
    if (refusing) return void client.destroy();
    const upstream = connect(Number(target.port || 5432), target.hostname);
    for (const [from, to] of [[client, upstream], [upstream, client]] as const) {
      track(from);
      from.pipe(to);
      from.on('error', () => to.destroy());
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const relayed = new URL(url);
  relayed.hostname = '127.0.0.1';
  relayed.port = String((server.address() as AddressInfo).port);
  return {
    url: relayed.toString(),
    refuse: () => void (refusing = true),
    accept: () => void (refusing = false),
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
