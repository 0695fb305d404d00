import { describe, expect, it } from 'vitest';
import { createEventHub } from '../events/index.js';
import type { BlockBundle, Hex, IndexerCursor, OrdinalRange } from '../storage/index.js';
import { KeptRows } from './kept-rows.js';
import { ListRows, tokenTransfersList, type ListSource } from './list-rows.js';

/** A numbered list of `length` rows held in the test, counting the range reads ListRows makes of it. */
function listOf(name: string, length: number, reads: OrdinalRange[]): ListSource<{ n: number; pad: string }, string> {
  const rows = Array.from({ length }, (_, i) => ({ n: i + 1, pad: `${name}:${'x'.repeat(500)}` }));
  return {
    list: name,
    shape: 'rows',
    version: '1',
    context: async () => ({ value: 'c', key: 'c' }),
    tip: async () => ({ length, blockNumber: 1n }),
    range: async (range) => {
      reads.push(range);
      return rows.slice(range.first - 1, range.last);
    },
    write: async (page) => page.map((row) => JSON.stringify(row)),
  };
}

/**
 * ListRows of `maxBytes` that has heard block 1 (it assembles pages only at a heard tip), that
 * head, and `hear`, which makes it hear the child of `parent` holding transfers of `tokens`.
 */
function heardRows(maxBytes: number): { rows: ListRows; head: IndexerCursor; hear: (block: IndexerCursor, parent: Hex, tokens: Hex[]) => void } {
  const hub = createEventHub();
  const rows = new ListRows(hub, maxBytes);
  // ListRows reads a heard block's number, hash, parent and list entries only.
  const hear = (block: IndexerCursor, parent: Hex, tokens: Hex[]) =>
    hub.emit('block', { block: { ...block, parentHash: parent }, logs: [], tokenTransfers: tokens.map((token) => ({ token })) } as unknown as BlockBundle);
  const head = { number: 1n, hash: '0x01' as Hex };
  hear(head, '0x00', []);
  return { rows, head, hear };
}

describe('ListRows kept rows', () => {
  it('keeps the rows of a page asked at every block while more pages than the budget holds are each asked once', async () => {
    // About three pages of 100 rows of ~530 characters.
    const { rows, head } = heardRows(170_000);
    const hotReads: OrdinalRange[] = [];
    const coldReads: OrdinalRange[] = [];
    const hot = listOf('hot', 1_000, hotReads);
    const expected = JSON.stringify(Array.from({ length: 100 }, (_, i) => ({ n: 1_000 - i, pad: `hot:${'x'.repeat(500)}` })));
    for (let round = 0; round < 20; round++) {
      const page = await rows.page(hot, head, { page: 1, offset: 100, sort: 'desc' });
      expect(page?.text === expected).toBe(true);
      // Five pages asked once each (a Zipf law's long tail), 500 rows, more than the budget.
      for (let cold = 0; cold < 5; cold++) {
        const other = listOf(`cold-${round}-${cold}`, 1_000, coldReads);
        expect((await rows.page(other, head, { page: 3, offset: 100, sort: 'desc' }))?.length).toBe(100);
      }
    }
    // Read once, when first asked; plain LRU evicted it every round (20 reads).
    expect(hotReads).toEqual([{ first: 901, last: 1_000 }]);
    expect(coldReads).toHaveLength(100);
  });

  it('a newest-first page shifted by blocks that add to its list reads the rows above it once for several blocks', async () => {
    const { rows, head, hear } = heardRows(1_000_000);
    const token = `0x${'ab'.repeat(20)}` as Hex;
    const reads: OrdinalRange[] = [];
    const entries = Array.from({ length: 1_000 }, (_, i) => ({ n: i + 1 }));
    const source: ListSource<{ n: number }, string> = {
      list: tokenTransfersList(token),
      shape: 'rows',
      version: '1',
      context: async () => ({ value: 'c', key: 'c' }),
      tip: async () => ({ length: entries.length, blockNumber: 1n }),
      range: async (range) => {
        reads.push(range);
        return entries.slice(range.first - 1, range.last);
      },
      write: async (page) => page.map((row) => JSON.stringify(row)),
    };
    let at = head;
    for (let block = 2; block <= 12; block++) {
      if (block > 2) {
        // Two transfers of the token a block: page 2 shifts down by two rows.
        const next = { number: BigInt(block), hash: `0x${block.toString(16).padStart(2, '0')}` as Hex };
        entries.push({ n: entries.length + 1 }, { n: entries.length + 2 });
        hear(next, at.hash, [token, token]);
        at = next;
      }
      const length = entries.length;
      const page = await rows.page(source, at, { page: 2, offset: 100, sort: 'desc' });
      expect(page?.text === JSON.stringify(entries.slice(length - 200, length - 100).reverse())).toBe(true);
    }
    // Read once with 32 rows above it; without reading ahead, once more at every block (11 reads).
    expect(reads).toEqual([{ first: 801, last: 932 }]);
  });
});

describe('KeptRows', () => {
  it('serves kept texts across chunk boundaries in both orders and reports the ordinals it lacks', () => {
    const kept = new KeptRows(1_000_000);
    kept.keep('l', 'c', 60, ['a60', 'a61', 'a62', 'a63', 'a64', 'a65', 'a66']);
    const up = new Array<string | { before: string; after: string; blockNumber: bigint }>(5);
    expect(kept.gather('l', 'c', 62, 1, up)).toEqual({ lowest: Number.POSITIVE_INFINITY, highest: Number.NEGATIVE_INFINITY });
    expect(up).toEqual(['a62', 'a63', 'a64', 'a65', 'a66']);
    const down = new Array<string | { before: string; after: string; blockNumber: bigint }>(10);
    expect(kept.gather('l', 'c', 68, -1, down)).toEqual({ lowest: 59, highest: 68 });
    expect(down.slice(2, 9)).toEqual(['a66', 'a65', 'a64', 'a63', 'a62', 'a61', 'a60']);
    // Under another context nothing is kept.
    expect(kept.gather('l', 'other', 62, 1, new Array(3))).toEqual({ lowest: 62, highest: 64 });
  });

  it('stays within its budget, letting in over it only what is asked more often', () => {
    const kept = new KeptRows(20_000);
    // Each list asked twice, then kept, as ListRows asks before it keeps.
    for (let list = 0; list < 50; list++) {
      for (const _ of [1, 2]) kept.gather(`l${list}`, 'c', 1, 1, new Array(30));
      kept.keep(`l${list}`, 'c', 1, Array.from({ length: 30 }, () => 'x'.repeat(100)));
    }
    // A list asked as often as those kept is not let in over a full budget; one asked more often is.
    expect(kept.gather('l49', 'c', 1, 1, new Array(30)).lowest).toBe(1);
    kept.keep('l49', 'c', 1, Array.from({ length: 30 }, () => 'x'.repeat(100)));
    expect(kept.gather('l49', 'c', 1, 1, new Array(30)).lowest).toBe(Number.POSITIVE_INFINITY);
    let keptLists = 0;
    for (let list = 0; list < 50; list++) if (kept.gather(`l${list}`, 'c', 1, 1, new Array(30)).lowest > 30) keptLists++;
    expect(keptLists).toBeGreaterThan(0);
    expect(keptLists * (30 * 100)).toBeLessThanOrEqual(20_000);
  });
});
