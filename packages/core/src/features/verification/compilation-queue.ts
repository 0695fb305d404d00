import { CompilerBusyError } from '../../errors/index.js';

/** Options of {@link CompilationQueue}. */
export interface CompilationQueueOptions {
  /** Verifications compiling at once. */
  maxConcurrent: number;
  /** Verifications waiting for a free place; beyond them, new ones are refused. */
  maxQueued: number;
  /** `Retry-After` of a refusal: how long until a place is likely free. */
  retryAfterSeconds: number;
}

/** A place taken in a {@link CompilationQueue}: wait for `started`, then `release()` (idempotent). */
export interface CompilationTicket {
  readonly started: Promise<void>;
  release(): void;
}

/**
 * Caps the verifications that compile at once, with a bounded queue behind them. A place is taken
 * at once or refused at once, so a caller learns before any work is accepted that it must come
 * back later.
 */
export class CompilationQueue {
  #running = 0;
  readonly #waiting: Place[] = [];

  constructor(private readonly options: CompilationQueueOptions) {}

  /** Takes a place; throws {@link CompilerBusyError} (429) when every place and the queue are taken. */
  enter(): CompilationTicket {
    const place: Place = { active: false, start: () => undefined };
    let started: Promise<void>;
    if (this.#running < this.options.maxConcurrent) {
      this.#running++;
      place.active = true;
      started = Promise.resolve();
    } else if (this.#waiting.length < this.options.maxQueued) {
      started = new Promise((resolve) => {
        place.start = () => {
          place.active = true;
          resolve();
        };
      });
      this.#waiting.push(place);
    } else {
      throw new CompilerBusyError(this.options.retryAfterSeconds);
    }
    let released = false;
    return {
      started,
      release: () => {
        if (released) return;
        released = true;
        if (!place.active) {
          this.#waiting.splice(this.#waiting.indexOf(place), 1);
          return;
        }
        // The place passes straight to the next in line, so `running` counts it throughout.
        const next = this.#waiting.shift();
        if (next) next.start();
        else this.#running--;
      },
    };
  }
}

/** One ticket's place: running (`active`) or waiting for `start`. */
interface Place {
  active: boolean;
  start(): void;
}
