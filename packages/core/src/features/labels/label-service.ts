import { LRUCache } from 'lru-cache';
import { growing } from '../../runtime/growing-lru.js';
import { LabelNotFoundError, WatchlistLimitError } from '../../errors/index.js';
import type { AddressLabelRecord, AddressLabels, LabelLookup } from '../../services/index.js';
import type { Hex, LabelStorage, StoredAddressLabel, StoredPrivateLabel } from '../../storage/index.js';
import type { LabelsVersion } from './labels-version.js';
import type { z } from 'zod';
import type { watchlistEntryRecordSchema } from '../../records/record-schemas.js';

/** A watch-list entry: a user's own label of an address, with its public label when it has one. */
export type WatchlistEntryRecord = z.infer<typeof watchlistEntryRecordSchema>;

/** What an admin sends to set a label (validated by the route). */
export interface AddressLabelInput {
  label: string;
  category?: string | null;
  note?: string | null;
}

/** What a user sends to put an address on their watch list. */
export interface WatchlistInput {
  label: string;
  note?: string | null;
}

/** Options of {@link LabelService}. */
export interface LabelServiceOptions {
  /** Most watch-list entries per user. */
  maxPrivatePerUser: number;
  /** Addresses whose label (or absence) is kept in memory; 0 keeps none. */
  cacheEntries: number;
  /**
   * Most public labels kept whole (see {@link LabelService.labelsOf}); 0 keeps them per address
   * only. 10,000 unless given; nothing is kept whole where `cacheEntries` is 0.
   */
  wholeSetMax?: number;
  now: () => number;
  /** Told after every label change this instance makes (the cluster tells the others). */
  onChange?: () => void;
}

/** Kept for an address: its label text, or `false` for none. */
type Kept = string | false;

/**
 * Most public labels kept whole by default: while there are no more, every label is kept (read
 * in one statement at each labels version) and no answer reads storage for its labels; an
 * explorer's public labels are typically a few hundred or thousand. Past it, labels are kept per
 * address.
 */
const WHOLE_SET_MAX = 10_000;

/**
 * Address labels. Public ones are set by admins and shown wherever records name an address
 * ({@link labelsOf}: no storage read while every label is kept, else one per answer for the
 * addresses not kept in memory; both are emptied whenever the labels version moves); private
 * ones are each user's watch list.
 */
export class LabelService implements LabelLookup {
  readonly #kept: LRUCache<Hex, Kept> | null;
  #keptVersion = -1;
  readonly #wholeSetMax: number;
  /** Every label of {@link #keptVersion} (`null`: more than `wholeSetMax`), once read. */
  #whole: Promise<ReadonlyMap<Hex, string> | null> | null = null;

  constructor(
    private readonly storage: LabelStorage,
    private readonly version: LabelsVersion,
    private readonly options: LabelServiceOptions,
  ) {
    this.#kept = options.cacheEntries > 0 ? new LRUCache(growing(options.cacheEntries)) : null;
    this.#wholeSetMax = options.wholeSetMax ?? WHOLE_SET_MAX;
  }

  /**
   * The labels of those of `addresses` that have one (`null`s and repeats allowed): the map every
   * record shaper reads `fromLabel`, `toLabel`, … from. At most one storage read.
   */
  async labelsOf(addresses: Iterable<Hex | null>): Promise<AddressLabels> {
    const wanted = new Set<Hex>();
    for (const address of addresses) if (address !== null) wanted.add(address);
    const labels = new Map<Hex, string>();
    if (wanted.size === 0) return labels;
    const version = await this.version.current();
    const kept = this.#kept;
    if (kept && version !== this.#keptVersion) {
      kept.clear();
      this.#keptVersion = version;
      this.#whole = null;
    }
    const whole = kept && this.#wholeSetMax > 0 && (await this.#wholeSet());
    if (whole) {
      for (const address of wanted) {
        const label = whole.get(address);
        if (label !== undefined) labels.set(address, label);
      }
      return labels;
    }
    const missing: Hex[] = [];
    for (const address of wanted) {
      const found = kept?.get(address);
      if (found === undefined) missing.push(address);
      else if (found !== false) labels.set(address, found);
    }
    if (missing.length === 0) return labels;
    const stored = new Map((await this.storage.getAddressLabels(missing)).map((label) => [label.address, label.label]));
    for (const address of missing) {
      const label = stored.get(address);
      if (label !== undefined) labels.set(address, label);
      // Kept only while the version read before the lookup still stands.
      if (kept && this.#keptVersion === version) kept.set(address, label ?? false);
    }
    return labels;
  }

  /**
   * Every public label by address, or `null` when there are more than `wholeSetMax`: one
   * read per labels version, shared by concurrent callers, tried again after a failed one. Read
   * after the version it is kept for, so a label changed in between shows newer, never older.
   */
  #wholeSet(): Promise<ReadonlyMap<Hex, string> | null> {
    if (this.#whole) return this.#whole;
    // The empty prefix starts every label's text.
    const max = this.#wholeSetMax;
    const reading = this.storage.searchAddressLabels('', max + 1).then(
      (every) => (every.length > max ? null : new Map(every.map((label) => [label.address, label.label]))),
      (error: unknown) => {
        if (this.#whole === reading) this.#whole = null;
        throw error;
      },
    );
    this.#whole = reading;
    return reading;
  }

  /** The labels version: what labels show moves with it (answers that show labels are kept per version). */
  labelsVersion(): Promise<number> {
    return this.version.current();
  }

  async get(address: Hex): Promise<AddressLabelRecord> {
    const [label] = await this.storage.getAddressLabels([address]);
    if (!label) throw new LabelNotFoundError();
    return label;
  }

  /**
   * Labels whose text starts with `prefix` (ignoring case), by text then address, at most
   * `limit`: what a search box matches names against.
   */
  search(prefix: string, limit: number): Promise<AddressLabelRecord[]> {
    return this.storage.searchAddressLabels(prefix, limit);
  }

  /** Sets (replaces) the address's public label. */
  async put(address: Hex, input: AddressLabelInput): Promise<AddressLabelRecord> {
    const label: StoredAddressLabel = { address, label: input.label, category: input.category ?? null, note: input.note ?? null, updatedAt: this.#now() };
    await this.storage.putAddressLabel(label);
    this.#changed();
    return label;
  }

  /** Removes the address's public label ({@link LabelNotFoundError} when it has none). */
  async delete(address: Hex): Promise<void> {
    if (!(await this.storage.deleteAddressLabel(address))) throw new LabelNotFoundError();
    this.#changed();
  }

  /** The user's watch list, newest first, with each address's public label. */
  async watchlist(userId: string): Promise<WatchlistEntryRecord[]> {
    const entries = await this.storage.listPrivateLabels(userId);
    const labels = await this.labelsOf(entries.map((entry) => entry.address));
    return entries.map((entry) => watchlistEntry(entry, labels));
  }

  /** Puts the address on the user's watch list or changes its entry ({@link WatchlistLimitError} past the cap). */
  async watch(userId: string, address: Hex, input: WatchlistInput): Promise<WatchlistEntryRecord> {
    const now = this.#now();
    const entry: StoredPrivateLabel = { userId, address, label: input.label, note: input.note ?? null, createdAt: now, updatedAt: now };
    if (!(await this.storage.putPrivateLabel(entry, { maxEntries: this.options.maxPrivatePerUser }))) throw new WatchlistLimitError();
    const stored = (await this.storage.listPrivateLabels(userId)).find((found) => found.address === address) ?? entry;
    return watchlistEntry(stored, await this.labelsOf([address]));
  }

  /** Takes the address off the user's watch list ({@link LabelNotFoundError} when it is not on it). */
  async unwatch(userId: string, address: Hex): Promise<void> {
    if (!(await this.storage.deletePrivateLabel(userId, address))) throw new LabelNotFoundError();
  }

  #now(): string {
    return new Date(this.options.now()).toISOString();
  }

  #changed(): void {
    this.version.changed();
    this.options.onChange?.();
  }
}

function watchlistEntry({ address, label, note, createdAt, updatedAt }: StoredPrivateLabel, labels: AddressLabels): WatchlistEntryRecord {
  return { address, label, note, publicLabel: labels.get(address) ?? null, createdAt, updatedAt };
}
