/**
 * Events per second over the last `seconds` whole seconds, counted in one bucket per second so
 * recording stays O(1) however many events arrive.
 */
export class RateWindow {
  private readonly counts: number[];
  private readonly stamps: number[];

  constructor(
    private readonly seconds: number,
    private readonly now: () => number = Date.now,
  ) {
    this.counts = new Array<number>(seconds).fill(0);
    this.stamps = new Array<number>(seconds).fill(-1);
  }

  /** Counts `n` events now. */
  record(n = 1): void {
    const second = Math.floor(this.now() / 1000);
    const slot = second % this.seconds;
    if (this.stamps[slot] !== second) {
      this.stamps[slot] = second;
      this.counts[slot] = 0;
    }
    this.counts[slot]! += n;
  }

  /** The mean rate over the window's complete seconds (the current, partial second is left out). */
  perSecond(): number {
    const current = Math.floor(this.now() / 1000);
    let total = 0;
    for (let slot = 0; slot < this.seconds; slot++) {
      const age = current - this.stamps[slot]!;
      if (age >= 1 && age <= this.seconds - 1) total += this.counts[slot]!;
    }
    return total / (this.seconds - 1);
  }
}
