import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { compiledScript } from './plain-node.js';

const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const START_TIMEOUT_MS = 120_000;
const STOP_TIMEOUT_MS = 5_000;

/** A benchmark server process. */
export interface ServerProcess {
  url: string;
  pid: number;
  /** Request headers that authenticate, by name (e.g. `jwt`, `apiKey`), where the server made any. */
  credentials: Record<string, Record<string, string>>;
}

/**
 * Runs `bench/servers/<script>` in its own Node process, hands it to `use`, and always stops it
 * afterwards. The server gets its own process because a load generator sharing its event
 * loop (on 2 cores) would measure itself as much as the server.
 */
export async function withServer<T>(script: string, args: string[], use: (server: ServerProcess) => Promise<T>, nodeArgs: string[] = []): Promise<T> {
  const server = await startServer(script, args, nodeArgs);
  try {
    return await use(server);
  } finally {
    await server.stop();
  }
}

/**
 * Starts `bench/servers/<script>` in its own Node process and resolves once it listens; the caller
 * must `stop()` it. For benchmarks that keep several servers up to measure them in turns.
 */
export async function startServer(script: string, args: string[], nodeArgs: string[] = []): Promise<ServerProcess & { stop(): Promise<void> }> {
  // Plain Node on the script compiled to JavaScript, no loader: the packages it imports resolve
  // to their built dist/ (`npm run bench` builds first), as a user's server runs them.
  const child = spawn(process.execPath, [...nodeArgs, compiledScript(`bench/servers/${script}`), ...args], {
    cwd: REPO_ROOT,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  try {
    const { url, credentials = {} } = await announcement(child, script);
    if (new URL(url).hostname !== '127.0.0.1') throw new Error(`${script} listens on ${url}, not on 127.0.0.1`);
    return { url, pid: child.pid!, credentials, stop: () => stop(child) };
  } catch (error) {
    await stop(child);
    throw error;
  }
}

/** What the server prints as its first stdout line (see `announce` in servers/listen.ts). */
type Announcement = Pick<ServerProcess, 'url'> & Partial<Pick<ServerProcess, 'credentials'>>;

function announcement(child: ChildProcess, script: string): Promise<Announcement> {
  return new Promise((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    const settle = (error: Error | null, announced?: Announcement) => {
      clearTimeout(timer);
      child.off('exit', onExit);
      lines.off('line', onLine);
      if (error) reject(error);
      else resolve(announced!);
    };
    const onLine = (line: string) => settle(null, JSON.parse(line) as Announcement);
    const onExit = (code: number | null) => settle(new Error(`${script} exited (code ${code}) before listening`));
    const timer = setTimeout(() => settle(new Error(`${script} did not listen within ${START_TIMEOUT_MS} ms`)), START_TIMEOUT_MS);
    lines.on('line', onLine);
    child.once('exit', onExit);
  });
}

/** Closes the server's stdin (its signal to exit), escalating to SIGKILL, and waits for the exit. */
async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, 'exit');
  child.stdin!.end();
  const killer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
  try {
    await exited;
  } finally {
    clearTimeout(killer);
  }
}
