/** Resolves after `ms`, or at once when `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}

/**
 * A sleep that `ring()` ends early: polling loops wait on it, push notifications ring it. A ring
 * while nobody sleeps is kept for the next sleep, which then ends at once: news that came while
 * the loop was busy is not left to the next poll.
 */
export class Alarm {
  private ringing: (() => void) | null = null;
  private rang = false;

  /**
   * Waits `ms`, until `ring()` (or a ring since the last sleep) or until `signal` aborts, whichever
   * comes first. A plain timer and resolver: loops ring it on every block, where an
   * AbortController per sleep cost more than their step.
   */
  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    if (this.rang || signal?.aborted) {
      this.rang = false;
      return Promise.resolve();
    }
    return new Promise((resolve) => {
      const wake = () => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', wake);
        this.ringing = null;
        resolve();
      };
      const timer = setTimeout(wake, ms);
      signal?.addEventListener('abort', wake, { once: true });
      this.ringing = wake;
    });
  }

  /** Ends the current sleep, or the next one when nobody sleeps. */
  ring(): void {
    if (this.ringing) this.ringing();
    else this.rang = true;
  }
}
