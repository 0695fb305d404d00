import { Worker } from 'node:worker_threads';
import {
  CompilationFailedError,
  CompilationMemoryLimitError,
  CompilationTimeLimitError,
  CompilerNotAvailableError,
  InternalError,
} from '../../errors/index.js';
import { installedSolc } from './compiler-builds.js';
import { SOLC_WORKER_SOURCE } from './solc-worker-source.js';

type WorkerMessage =
  | { type: 'ready'; version: string }
  | { type: 'output'; output: string; outOfMemory: boolean }
  | { type: 'failed'; message: string; outOfMemory: boolean };

type Waiter = { resolve(message: WorkerMessage): void; reject(error: Error): void };

/** What one compilation produced: solc's JSON text, and whether memory was refused on the way. */
export interface WorkerOutput {
  output: string;
  outOfMemory: boolean;
}

/** Limits of one compiler worker. */
export interface SolcWorkerLimits {
  /** Cap of the worker's JavaScript heap and, separately, of the compiler's WebAssembly memory. */
  maxMemoryMb: number;
  /** Longest the build may take to load. */
  loadTimeoutMs: number;
}

/**
 * One worker thread holding one loaded solc-js build, compiling one input at a time, each within a
 * wall-clock limit. A worker whose compilation overran its limit, ran out of memory or failed is
 * terminated and never used again.
 */
export class SolcWorker {
  #waiter: Waiter | null = null;
  #alive = true;
  #version = '';

  private constructor(
    private readonly worker: Worker,
    private readonly maxMemoryMb: number,
  ) {
    worker.on('message', (message: WorkerMessage) => this.#settle((waiter) => waiter.resolve(message)));
    worker.on('error', (error: Error & { code?: string }) => {
      this.#alive = false;
      const failure = error.code === 'ERR_WORKER_OUT_OF_MEMORY' ? new CompilationMemoryLimitError(maxMemoryMb) : new InternalError(error);
      this.#settle((waiter) => waiter.reject(failure));
    });
    worker.on('exit', () => {
      this.#alive = false;
      this.#settle((waiter) => waiter.reject(new InternalError(new Error('the compiler worker exited'))));
    });
  }

  /** Loads the solc-js build in `soljsonPath` in a new worker; {@link CompilerNotAvailableError} when it does not load. */
  static async start(soljsonPath: string, limits: SolcWorkerLimits): Promise<SolcWorker> {
    const worker = new Worker(SOLC_WORKER_SOURCE, {
      eval: true,
      workerData: { wrapperPath: installedSolc().wrapperPath, soljsonPath, maxMemoryBytes: limits.maxMemoryMb * 1024 * 1024 },
      resourceLimits: { maxOldGenerationSizeMb: limits.maxMemoryMb },
    });
    const solc = new SolcWorker(worker, limits.maxMemoryMb);
    // A loaded compiler waiting for work must not keep the host process alive (a running
    // compilation's time limit does, while it lasts). After the listeners, which would ref it again.
    worker.unref();
    try {
      const ready = await solc.#next(limits.loadTimeoutMs, () => new CompilerNotAvailableError(`${soljsonPath} did not load within ${limits.loadTimeoutMs} ms`));
      if (ready.type !== 'ready') {
        throw ready.type === 'failed' && ready.outOfMemory
          ? new CompilationMemoryLimitError(limits.maxMemoryMb)
          : new CompilerNotAvailableError(`${soljsonPath} could not be loaded: ${ready.type === 'failed' ? ready.message : ready.type}`);
      }
      // solc-js appends the platform (`.Emscripten.clang`); Etherscan's long form ends at the commit.
      solc.#version = /^.*?\+commit\.[0-9a-f]{8}/.exec(ready.version)?.[0] ?? ready.version;
      return solc;
    } catch (error) {
      await solc.terminate();
      throw error;
    }
  }

  /** The version the build reports, long form (`0.8.37+commit.f401782d`). */
  get version(): string {
    return this.#version;
  }

  /** Whether it can compile again. */
  get alive(): boolean {
    return this.#alive;
  }

  /**
   * Compiles standard-JSON `input` (text). Past `timeoutMs` the worker is terminated and
   * {@link CompilationTimeLimitError} thrown; memory exhaustion throws {@link CompilationMemoryLimitError}.
   */
  async compile(input: string, timeoutMs: number): Promise<WorkerOutput> {
    if (!this.#alive || this.#waiter) throw new Error('the compiler worker is busy or ended');
    let answer: WorkerMessage;
    try {
      const answered = this.#next(timeoutMs, () => new CompilationTimeLimitError(timeoutMs));
      this.worker.postMessage(input);
      answer = await answered;
    } catch (error) {
      await this.terminate();
      throw error;
    }
    if (answer.type === 'output') return { output: answer.output, outOfMemory: answer.outOfMemory };
    await this.terminate();
    if (answer.type === 'failed' && answer.outOfMemory) throw new CompilationMemoryLimitError(this.maxMemoryMb);
    throw new CompilationFailedError(`the compiler stopped: ${answer.type === 'failed' ? answer.message : answer.type}`);
  }

  /** Ends the worker (idempotent). */
  async terminate(): Promise<void> {
    this.#alive = false;
    await this.worker.terminate();
  }

  /** The worker's next message, or `onTimeout()` once `timeoutMs` pass without one. */
  #next(timeoutMs: number, onTimeout: () => Error): Promise<WorkerMessage> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => this.#settle((waiter) => waiter.reject(onTimeout())), timeoutMs);
      this.#waiter = {
        resolve: (message) => {
          clearTimeout(timer);
          resolve(message);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      };
    });
  }

  #settle(action: (waiter: Waiter) => void): void {
    const waiter = this.#waiter;
    this.#waiter = null;
    if (waiter) action(waiter);
  }
}
