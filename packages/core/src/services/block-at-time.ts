import type { BlockReader, StoredBlock } from '../storage/index.js';

/**
 * The newest stored block in `[low, high]` with a timestamp at or before `timestamp`, by binary
 * search (block timestamps never decrease along a chain); `null` when even block `low` is later.
 */
export async function lastBlockAtOrBefore(storage: BlockReader, low: bigint, high: bigint, timestamp: bigint): Promise<StoredBlock | null> {
  let found: StoredBlock | null = null;
  while (low <= high) {
    const middle = (low + high) / 2n;
    const block = await storage.getBlockByNumber(middle);
    if (!block) throw new Error(`block ${middle} is missing between stored blocks`);
    if (block.timestamp <= timestamp) {
      found = block;
      low = middle + 1n;
    } else {
      high = middle - 1n;
    }
  }
  return found;
}
