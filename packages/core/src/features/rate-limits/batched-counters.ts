import type { CounterHit, CounterStorage } from '../../storage/index.js';

/** What counts rate-limit hits: the storage itself, or {@link BatchedCounters} in front of it. */
export interface CounterStore {
  /** As {@link CounterStorage.hitCounters}; may answer at once, without a promise. */
  hitCounters(hits: CounterHit[], now: number): number[] | Promise<number[]>;
}

/** Options of {@link BatchedCounters}. */
export interface BatchedCountersOptions {
  /** Milliseconds between two flushes (the beat). */
  flushIntervalMs: number;
  now: () => number;
  /** Told of a flush that failed; its counts are kept and sent on the next beat. */
  onFlushError: (error: unknown) => void;
}

/** One counter as this instance knows it. */
interface Entry {
  expiresAt: number;
  /** The shared total as storage last answered it (this instance's flushed counts included). */
  shared: number;
  /** Counted here since the last flush began. */
  pending: number;
  /** Counted here and being flushed now. */
  flushing: number;
  /** The beat in which it was last hit. */
  hitBeat: number;
  /** While the counter's first hit here is being written and its total read. */
  loading: Promise<void> | null;
}

/** Beats a counter may go unhit before it is dropped here (its next hit reads it from storage again). */
const IDLE_BEATS = 5;

/**
 * Counters held in process and flushed to storage in batches: the first hit of a counter here
 * writes through and reads its total; later hits are counted in memory and answered at once, and
 * every beat one `hitCounters` call adds what was counted and reads back the shared totals of
 * every counter in use (those only read add 0). An instance's own counts are therefore always
 * exact; other instances' counts are seen as of the last beat. A counter not hit for a few beats
 * is dropped, so memory holds only callers of the last second or so.
 */
export class BatchedCounters implements CounterStore {
  private readonly entries = new Map<string, Entry>();
  private readonly timer: NodeJS.Timeout;
  private beat = 0;
  private flushing: Promise<void> | null = null;

  constructor(
    private readonly storage: CounterStorage,
    private readonly options: BatchedCountersOptions,
  ) {
    // A beat whose flush is still out is skipped: the next one sends what it missed.
    this.timer = setInterval(() => this.flushing === null && void this.flush(), options.flushIntervalMs).unref();
  }

  hitCounters(hits: CounterHit[], now: number): number[] | Promise<number[]> {
    // The common case, every counter held and loaded, allocates nothing but the answer.
    for (const hit of hits) {
      const entry = this.entries.get(hit.key);
      if (entry === undefined || entry.expiresAt <= now || entry.loading !== null) return this.slowHit(hits, now);
    }
    // Sized at once: pushing onto an empty array would reserve room for 16.
    const totals = new Array<number>(hits.length);
    for (let i = 0; i < hits.length; i++) totals[i] = this.count(this.entries.get(hits[i]!.key)!, hits[i]!.amount);
    return totals;
  }

  /** A hit of which some counter is not held here yet or is still loading. */
  private slowHit(hits: CounterHit[], now: number): Promise<number[]> {
    let missing: CounterHit[] | null = null;
    let loading: Promise<void>[] | null = null;
    for (const hit of hits) {
      const entry = this.entries.get(hit.key);
      if (entry === undefined || entry.expiresAt <= now) (missing ??= []).push(hit);
      else if (entry.loading !== null) (loading ??= []).push(entry.loading);
    }
    return this.load(hits, missing ?? [], loading ?? [], now);
  }

  /** Adds the counts held here to storage and reads back the shared totals now, not on the next beat. */
  async flush(): Promise<void> {
    while (this.flushing !== null) await this.flushing;
    this.flushing = this.send().finally(() => (this.flushing = null));
    await this.flushing;
  }

  /** Stops the beat and sends what is still held. */
  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }

  private count(entry: Entry, amount: number): number {
    entry.pending += amount;
    entry.hitBeat = this.beat;
    return entry.shared + entry.flushing + entry.pending;
  }

  /** Writes the first hits of `missing` through (reading their totals), waits for counters already loading, then counts the rest here. */
  private async load(hits: CounterHit[], missing: CounterHit[], loading: Promise<void>[], now: number): Promise<number[]> {
    const written = new Map<string, number>();
    if (missing.length > 0) {
      const entries = missing.map((hit) => this.newEntry(hit));
      const stored = this.storage.hitCounters(missing, now).then(
        (totals) => missing.forEach((hit, i) => written.set(hit.key, (entries[i]!.shared = totals[i] ?? 0))),
        (error: unknown) => {
          for (const hit of missing) this.entries.delete(hit.key);
          throw error;
        },
      );
      const done = stored.finally(() => entries.forEach((entry) => (entry.loading = null)));
      for (const entry of entries) entry.loading = done;
      loading.push(done);
    }
    await Promise.all(loading);
    return hits.map((hit) => written.get(hit.key) ?? this.count(this.entries.get(hit.key)!, hit.amount));
  }

  private newEntry(hit: CounterHit): Entry {
    const entry: Entry = { expiresAt: hit.expiresAt, shared: 0, pending: 0, flushing: 0, hitBeat: this.beat, loading: null };
    this.entries.set(hit.key, entry);
    return entry;
  }

  /** One beat: drops counters gone or idle, then adds the held counts and reads back every total in one call. */
  private async send(): Promise<void> {
    const beat = this.beat++;
    const now = this.options.now();
    const sent: Entry[] = [];
    const batch: CounterHit[] = [];
    for (const [key, entry] of this.entries) {
      if (entry.loading !== null) continue;
      if (entry.expiresAt <= now || (entry.pending === 0 && beat - entry.hitBeat >= IDLE_BEATS)) {
        this.entries.delete(key);
        continue;
      }
      entry.flushing = entry.pending;
      entry.pending = 0;
      sent.push(entry);
      batch.push({ key, amount: entry.flushing, expiresAt: entry.expiresAt });
    }
    if (batch.length === 0) return;
    try {
      const totals = await this.storage.hitCounters(batch, now);
      sent.forEach((entry, i) => {
        entry.shared = totals[i] ?? 0;
        entry.flushing = 0;
      });
    } catch (error) {
      for (const entry of sent) {
        entry.pending += entry.flushing;
        entry.flushing = 0;
      }
      this.options.onFlushError(error);
    }
  }
}
