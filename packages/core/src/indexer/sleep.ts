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

/** A sleep that `ring()` ends early: polling loops wait on it, push notifications ring it. */
export class Alarm {
  private ringing: (() => void) | null = null;

  /** Waits `ms`, until `ring()` or until `signal` aborts, whichever comes first. */
  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    const wake = new AbortController();
    this.ringing = () => wake.abort();
    const onAbort = () => wake.abort();
    signal?.addEventListener('abort', onAbort, { once: true });
    return sleep(ms, signal?.aborted ? signal : wake.signal).finally(() => {
      signal?.removeEventListener('abort', onAbort);
      this.ringing = null;
    });
  }

  /** Ends the current sleep, if any. */
  ring(): void {
    this.ringing?.();
  }
}
