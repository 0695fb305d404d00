import { readFile } from 'node:fs/promises';

/** One TCP socket of this network namespace, as Linux lists it in /proc/net/tcp and tcp6. */
export interface TcpSocket {
  localPort: number;
  remotePort: number;
  /** The timer running on it: a keepalive timer runs only on a socket with SO_KEEPALIVE. */
  timer: 'none' | 'retransmit' | 'keepalive' | 'time-wait' | 'zero-window-probe';
  /** Seconds until that timer fires. */
  seconds: number;
}

const TIMERS = ['none', 'retransmit', 'keepalive', 'time-wait', 'zero-window-probe'] as const;
/** /proc/net/tcp counts timers in USER_HZ ticks, 100 a second on every Linux architecture. */
const TICKS_PER_SECOND = 100;

/** Every established TCP socket (Linux only). */
export async function establishedTcpSockets(): Promise<TcpSocket[]> {
  const tables = await Promise.all(['/proc/net/tcp', '/proc/net/tcp6'].map((path) => readFile(path, 'utf8').catch(() => '')));
  const sockets: TcpSocket[] = [];
  for (const line of tables.flatMap((table) => table.split('\n').slice(1))) {
    const fields = line.trim().split(/\s+/);
    if (fields.length < 6 || fields[3] !== '01') continue; // 01: ESTABLISHED
    const port = (address: string) => parseInt(address.split(':')[1]!, 16);
    const [timer, when] = fields[5]!.split(':').map((hex) => parseInt(hex, 16)) as [number, number];
    sockets.push({ localPort: port(fields[1]!), remotePort: port(fields[2]!), timer: TIMERS[timer] ?? 'none', seconds: when / TICKS_PER_SECOND });
  }
  return sockets;
}
