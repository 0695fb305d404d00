import { z } from 'zod';

const int = (min: number) => z.number().int().min(min);

/** The `labels` slice of the explorer's config: public labels set by admins, private ones (a watch list) per user. */
export const labelsConfigSchema = z
  .object({
    /** Most private labels (watch-list entries) one user may keep. */
    maxPrivatePerUser: int(1).max(100_000).default(1_000),
    /** Addresses whose public label (or its absence) is kept in memory until labels change; 0 reads storage for every answer. */
    cacheEntries: int(0).default(100_000),
  });

/** The `labels` options, resolved. */
export type LabelsConfig = z.output<typeof labelsConfigSchema>;
