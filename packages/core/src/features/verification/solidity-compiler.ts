import type { CompilerOutput, ISolidityCompiler, JsonInput } from '@ethereum-sourcify/lib-sourcify';
import { CompilationFailedError, CompilationMemoryLimitError, CompilerNotAvailableError } from '../../errors/index.js';
import { CompilerBuilds } from './compiler-builds.js';
import { SolcWorker, type WorkerOutput } from './solc-worker.js';

/** Options of {@link SolidityCompiler}. */
export interface SolidityCompilerOptions {
  /** Directory of `soljson-v<version>+commit.<hash>.js` builds for versions other than the bundled one. */
  compilersDir?: string;
  /** Wall-clock limit of one compilation (loading the compiler not included). */
  timeoutMs: number;
  /** Cap of each worker's JavaScript heap and of the compiler's WebAssembly memory, each. */
  maxMemoryMb: number;
  /** Loaded compilers kept for the next compilations (a verification compiles two or three times). */
  maxIdle: number;
}

/**
 * Loading a build is ChainLens's own work, not the submitter's, so it is not counted in
 * `timeoutMs`; a build that takes this long to load is broken.
 */
const LOAD_TIMEOUT_MS = 120_000;

/** How long a loaded compiler waits for its next compilation before its worker ends. */
const IDLE_MS = 15_000;

/** solc's error entries, as much of them as messages need. */
interface SolcError {
  severity: string;
  type?: string;
  message?: string;
  formattedMessage?: string;
  sourceLocation?: { file?: string };
}

/**
 * Solidity compilation in worker threads (solc-js), so it never blocks the event loop: each
 * compilation has a wall-clock limit (its worker is terminated past it) and a memory limit, and
 * reads nothing but its input. The bundled `solc` serves its own version, other versions come
 * from the compilers directory. Loaded compilers are kept a little while for the next
 * compilation of the same version. Implements lib-sourcify's `ISolidityCompiler`.
 */
export class SolidityCompiler implements ISolidityCompiler {
  readonly #builds: CompilerBuilds;
  /** Loaded, unused workers by soljson file, oldest first. */
  readonly #idle = new Map<string, { worker: SolcWorker; timer: NodeJS.Timeout }[]>();
  readonly #live = new Set<SolcWorker>();
  #closed = false;

  constructor(private readonly options: SolidityCompilerOptions) {
    this.#builds = new CompilerBuilds(options.compilersDir);
  }

  /**
   * The long version (`0.8.37+commit.f401782d`) of the build that serves `requested` (`v0.8.37+commit.f401782d`
   * or `0.8.37`); throws `CompilerNotAvailableError` naming where it looked when none does.
   */
  async version(requested: string): Promise<string> {
    const { key, worker } = await this.#borrow(requested);
    this.#giveBack(key, worker);
    return worker.version;
  }

  /**
   * Compiles standard-JSON `input` with solc `version`. Throws `CompilationFailedError` with the
   * compiler's errors, `CompilationTimeLimitError` or `CompilationMemoryLimitError` past a limit.
   */
  async compile(version: string, input: JsonInput): Promise<CompilerOutput> {
    const { key, worker } = await this.#borrow(version);
    let compiled: WorkerOutput;
    try {
      compiled = await worker.compile(JSON.stringify(input), this.options.timeoutMs);
    } catch (error) {
      this.#live.delete(worker);
      throw error;
    }
    const { output, outOfMemory } = compiled;
    const parsed = JSON.parse(output) as CompilerOutput;
    const errors = ((parsed.errors ?? []) as SolcError[]).filter((error) => error.severity === 'error');
    // A compiler that ran out of memory may be left in a broken state: never reused.
    if (outOfMemory) this.#end(worker);
    else this.#giveBack(key, worker);
    if (errors.length > 0) throw outOfMemory ? new CompilationMemoryLimitError(this.options.maxMemoryMb) : new CompilationFailedError(summarize(errors));
    return parsed;
  }

  /** Ends every worker; compilations still running fail. */
  async close(): Promise<void> {
    this.#closed = true;
    for (const entries of this.#idle.values()) for (const { timer } of entries) clearTimeout(timer);
    this.#idle.clear();
    await Promise.all([...this.#live].map((worker) => worker.terminate()));
  }

  /** A loaded worker for `version`: an idle one of its build, or a new one. */
  async #borrow(version: string): Promise<{ key: string; worker: SolcWorker }> {
    if (this.#closed) throw new Error('the Solidity compiler is closed');
    const build = await this.#builds.find(version);
    const key = build.soljsonPath;
    const idle = this.#idle.get(key)?.shift();
    if (idle) clearTimeout(idle.timer);
    const worker = idle?.worker ?? (await this.#start(key));
    // A build is trusted for the version it reports, not the one its file name claims.
    if (build.expectedVersion !== null && worker.version !== build.expectedVersion) {
      this.#giveBack(key, worker);
      throw new CompilerNotAvailableError(`${build.soljsonPath} holds solc ${worker.version}, not ${build.expectedVersion}`);
    }
    return { key, worker };
  }

  async #start(soljsonPath: string): Promise<SolcWorker> {
    const worker = await SolcWorker.start(soljsonPath, { maxMemoryMb: this.options.maxMemoryMb, loadTimeoutMs: LOAD_TIMEOUT_MS });
    this.#live.add(worker);
    if (this.#closed) await worker.terminate();
    return worker;
  }

  #giveBack(key: string, worker: SolcWorker): void {
    const idleCount = [...this.#idle.values()].reduce((sum, entries) => sum + entries.length, 0);
    if (this.#closed || !worker.alive || idleCount >= this.options.maxIdle) {
      this.#end(worker);
      return;
    }
    const timer = setTimeout(() => {
      this.#idle.set(key, (this.#idle.get(key) ?? []).filter((entry) => entry.worker !== worker));
      this.#end(worker);
    }, IDLE_MS);
    timer.unref();
    this.#idle.set(key, [...(this.#idle.get(key) ?? []), { worker, timer }]);
  }

  #end(worker: SolcWorker): void {
    this.#live.delete(worker);
    void worker.terminate();
  }
}

/** The compiler's errors in one line each (at most three), with the file they are in. */
function summarize(errors: SolcError[]): string {
  const lines = errors.slice(0, 3).map((error) => {
    const text = `${error.type ?? 'Error'}: ${error.message ?? error.formattedMessage ?? 'unknown error'}`;
    return error.sourceLocation?.file ? `${text} (${error.sourceLocation.file})` : text;
  });
  return errors.length > 3 ? `${lines.join('; ')}; and ${errors.length - 3} more` : lines.join('; ');
}
