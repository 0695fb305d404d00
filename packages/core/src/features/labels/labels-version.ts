import type { LabelStorage } from '../../storage/index.js';

/**
 * The stored labels version as this instance knows it, without a storage round trip on every
 * request: read again when older than `maxAgeMs` or when told labels changed (by this instance's
 * writes, or another's through the cluster bus). Caches of answers that show labels are keyed by
 * it, so none outlives a label change by more than `maxAgeMs` on an instance that hears nothing,
 * and not at all on the instance that made it.
 */
export class LabelsVersion {
  #value = 0;
  #readAt = Number.NEGATIVE_INFINITY;
  /** Bumped by {@link changed}, so a read that started before a change cannot keep its older value. */
  #generation = 0;
  #reading: Promise<number> | null = null;

  constructor(
    private readonly storage: LabelStorage,
    private readonly maxAgeMs: number,
  ) {}

  /** The version, at most `maxAgeMs` old; concurrent callers share one storage read. */
  current(): Promise<number> {
    const value = this.value();
    return typeof value === 'number' ? Promise.resolve(value) : value;
  }

  /** As {@link current}, but the kept version comes at once, without a promise, while it is fresh. */
  value(): number | Promise<number> {
    if (performance.now() - this.#readAt <= this.maxAgeMs) return this.#value;
    this.#reading ??= this.#read();
    return this.#reading;
  }

  /** Labels changed: the next {@link current} reads the stored version. */
  changed(): void {
    this.#generation++;
    this.#readAt = Number.NEGATIVE_INFINITY;
  }

  async #read(): Promise<number> {
    const generation = this.#generation;
    try {
      const version = await this.storage.getLabelsVersion();
      if (generation === this.#generation) {
        this.#value = version;
        this.#readAt = performance.now();
      }
      return version;
    } finally {
      this.#reading = null;
    }
  }
}
