import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import type { Socket } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { resolveAnvilBinary } from './anvil-binary.js';
import { trackChild } from './child-registry.js';
import { findFreePort, isPortFree } from './free-port.js';
import { rpcCall } from './rpc.js';

/** Options of {@link startAnvil}. */
export interface AnvilOptions {
  /** Port to listen on (127.0.0.1). A free one is picked when omitted. */
  port?: number;
  /** Seconds between blocks (interval mining). Omitted: automine, one block per transaction. */
  blockTime?: number;
  /** Extra anvil flags, passed verbatim (e.g. `['--gas-limit', '100000000']`). */
  args?: string[];
  /**
   * anvil's `--state <path>`: loads the chain from this file at start (if it exists) and dumps it
   * there on stop, so a restarted instance continues the same chain.
   */
  statePath?: string;
}

/** A running anvil node started by {@link startAnvil}. */
export interface AnvilInstance {
  /** HTTP JSON-RPC endpoint, e.g. `http://127.0.0.1:41234`. */
  readonly rpcUrl: string;
  readonly port: number;
  /** OS process id of the current anvil process (changes on {@link AnvilInstance.restart}). */
  readonly pid: number;
  /** Sends SIGTERM and resolves once the process has exited. Safe to call repeatedly. */
  stop(): Promise<void>;
  /** Stops the node and starts it again on the same port with the same flags. */
  restart(): Promise<void>;
}

const READY_TIMEOUT_MS = 30_000;
/** Grace period for anvil to exit (and dump `--state`) before it is killed. */
const STOP_TIMEOUT_MS = 15_000;
const STDERR_KEEP_CHARS = 16_384;
const PORT_ATTEMPTS = 3;

/**
 * Spawns the real anvil binary and resolves once it answers `eth_chainId`. The process is
 * terminated when this process exits, even without {@link AnvilInstance.stop}.
 */
export async function startAnvil(options: AnvilOptions = {}): Promise<AnvilInstance> {
  const binary = resolveAnvilBinary();
  const args = [
    ...(options.blockTime !== undefined ? ['--block-time', String(options.blockTime)] : []),
    ...(options.statePath !== undefined ? ['--state', options.statePath] : []),
    ...(options.args ?? []),
  ];
  if (options.port !== undefined) {
    return new AnvilProcess(binary, args, options.port, await launch(binary, args, options.port));
  }
  for (let attempt = 1; ; attempt++) {
    const port = await findFreePort();
    try {
      return new AnvilProcess(binary, args, port, await launch(binary, args, port));
    } catch (error) {
      // Another process may grab the probed port before anvil binds it; try a fresh one.
      const portTaken = error instanceof AnvilStartError && /already in use/i.test(error.message);
      if (!portTaken || attempt === PORT_ATTEMPTS) throw error;
    }
  }
}

/** anvil exited or stayed silent while starting; `stderr` holds its last output. */
export class AnvilStartError extends Error {
  constructor(
    message: string,
    readonly stderr: string,
  ) {
    super(stderr ? `${message}\nanvil stderr:\n${stderr}` : message);
    this.name = 'AnvilStartError';
  }
}

class AnvilProcess implements AnvilInstance {
  readonly rpcUrl: string;
  #child: ChildProcess;
  #stopping: Promise<void> | undefined;

  constructor(
    private readonly binary: string,
    private readonly args: string[],
    readonly port: number,
    child: ChildProcess,
  ) {
    this.rpcUrl = rpcUrlFor(port);
    this.#child = child;
  }

  get pid(): number {
    return this.#child.pid as number; // defined: launch() only returns running processes
  }

  stop(): Promise<void> {
    this.#stopping ??= terminate(this.#child);
    return this.#stopping;
  }

  async restart(): Promise<void> {
    await this.stop();
    this.#child = await launch(this.binary, this.args, this.port);
    this.#stopping = undefined;
  }
}

function rpcUrlFor(port: number): string {
  return `http://127.0.0.1:${port}`;
}

async function launch(binary: string, args: string[], port: number): Promise<ChildProcess> {
  // Otherwise the readiness probe below would be answered by whatever already listens there.
  if (!(await isPortFree(port))) throw new AnvilStartError(`port ${port} is already in use`, '');
  // stdout is ignored: anvil logs every request there, and an unread pipe would eventually block it.
  const child = spawn(binary, ['--port', String(port), ...args], { stdio: ['ignore', 'ignore', 'pipe'] });
  trackChild(child);
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-STDERR_KEEP_CHARS);
  });
  let exit: string | undefined;
  // 'close' rather than 'exit': it fires after stderr is drained, so the error message is complete.
  once(child, 'close').then(
    ([code, signal]) => (exit = `anvil exited (code ${code}, signal ${signal}) while starting`),
    (error: Error) => (exit = `anvil could not be spawned from ${binary}: ${error.message}`),
  );

  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    if (exit !== undefined) throw new AnvilStartError(exit, stderr.trim());
    if (Date.now() > deadline) {
      await terminate(child);
      const message = `anvil did not answer on port ${port} within ${READY_TIMEOUT_MS} ms`;
      throw new AnvilStartError(message, stderr.trim());
    }
    if (await answers(rpcUrlFor(port))) break;
    await delay(20);
  }
  // Never keep the parent alive just for anvil: the exit hook in trackChild cleans it up.
  child.unref();
  (child.stderr as Socket | null)?.unref();
  return child;
}

async function answers(rpcUrl: string): Promise<boolean> {
  try {
    await rpcCall(rpcUrl, 'eth_chainId', [], 1_000);
    return true;
  } catch {
    return false;
  }
}

async function terminate(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  child.ref(); // keep the event loop alive until the exit is observed
  const exited = once(child, 'exit');
  child.kill('SIGTERM');
  const killer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
  try {
    await exited;
  } finally {
    clearTimeout(killer);
  }
}
