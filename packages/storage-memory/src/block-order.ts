/** Index of the first item with `blockNumber >= number` in a list sorted by block (`list.length` if none). */
export function firstAtOrAbove(list: readonly { blockNumber: bigint }[], number: bigint): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid]!.blockNumber < number) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
