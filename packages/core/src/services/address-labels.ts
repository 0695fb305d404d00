import type { z } from 'zod';
import type { addressLabelRecordSchema } from '../records/record-schemas.js';
import type { Hex } from '../storage/index.js';

/** The public label text of each labelled address among some, as records show them. */
export type AddressLabels = ReadonlyMap<Hex, string>;

/** A public label (spec-style record: `{address, label, category, note}`), with when it was set. */
export type AddressLabelRecord = z.infer<typeof addressLabelRecordSchema>;

/**
 * What the chain's services read of public labels. The labels feature implements it
 * (`LabelService`); the services take this port so that they do not depend on that feature.
 */
export interface LabelLookup {
  /** The labels of those of `addresses` that have one (`null`s and repeats allowed), in at most one storage read. */
  labelsOf(addresses: Iterable<Hex | null>): Promise<AddressLabels>;
  /** The labels version: what labels show moves with it (answers that show labels are kept per version). */
  labelsVersion(): Promise<number>;
  /** Labels whose text starts with `prefix` (ignoring case), by text then address, at most `limit`. */
  search(prefix: string, limit: number): Promise<AddressLabelRecord[]>;
}

/** The label of `address` in `labels`, `null` for none (or no address). */
export function labelOf(labels: AddressLabels, address: string | null): string | null {
  return address === null ? null : (labels.get(address as Hex) ?? null);
}
