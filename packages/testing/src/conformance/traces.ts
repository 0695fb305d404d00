import { describe, expect } from 'vitest';
import type { BlockBundle, BlockTraces, Hex, Storage } from '@chainlens/core';
import { fixtureAddress, makeChain } from '../fixtures.js';
import { withInternalTransactions } from '../internal-transaction-fixtures.js';
import { tracedThrough, tracesOf, withInnerCreations, withoutTraces } from '../trace-fixtures.js';
import { type StorageFactory, expectStoredChain, storageTest, writeChain } from './harness.js';

/** A chain whose transactions created contracts and moved value inside them, as traces tell. */
function tracedChain(options: { blocks: number; seed?: string; parent?: BlockBundle['block'] } = { blocks: 10 }): BlockBundle[] {
  return withInnerCreations(withInternalTransactions(makeChain({ txPerBlock: 3, ...options })));
}

/** Writes `chain`'s blocks as the indexer does, without their traces. */
function writeBlocks(storage: Storage, chain: readonly BlockBundle[]): Promise<void> {
  return writeChain(storage, chain.map(withoutTraces));
}

/** Traces of a block, then stored traces: contracts created inside transactions, internal transactions, and the trace cursor that follows the blocks. */
export function traceTests(factory: StorageFactory): void {
  const test = storageTest(factory);

  describe('block traces', () => {
    test('blocks written without their traces and traced afterwards, in batches, read back as if written with them', async (storage) => {
      const chain = tracedChain();
      expect(chain.some((b) => b.contracts.some((c) => c.traceIndex > 0) && b.internalTransactions.length > 0)).toBe(true);
      expect(await storage.getTraceCursor()).toBeNull();
      await writeBlocks(storage, chain);
      const first = chain[0]!.block.number;
      expect(await storage.getTraceCursor()).toBe(first - 1n);
      await expectStoredChain(storage, tracedThrough(chain, first - 1n));
      for (const [from, to] of [[0, 3], [3, 4], [4, chain.length]] as const) {
        await storage.writeBlockTraces(chain.slice(from, to).map(tracesOf));
        expect(await storage.getTraceCursor()).toBe(chain[to - 1]!.block.number);
      }
      await expectStoredChain(storage, chain);
      await storage.writeBlockTraces([]);
      expect(await storage.getTraceCursor()).toBe(chain.at(-1)!.block.number);
    });

    test('rollbacks take the trace cursor back with the blocks and clear it with the last; blocks written again are traced again', async (storage) => {
      const chain = tracedChain();
      await writeBlocks(storage, chain);
      await storage.writeBlockTraces(chain.slice(0, 6).map(tracesOf));
      // Above the traced blocks, a rollback leaves the trace cursor where it is.
      await storage.rollbackTo(chain[7]!.block.number);
      expect(await storage.getTraceCursor()).toBe(chain[5]!.block.number);
      await storage.rollbackTo(chain[3]!.block.number);
      expect(await storage.getTraceCursor()).toBe(chain[3]!.block.number);
      await expectStoredChain(storage, chain.slice(0, 4), chain.slice(4));

      const fork = tracedChain({ blocks: 5, seed: 'fork', parent: chain[3]!.block });
      await writeBlocks(storage, fork);
      // The traces of the removed blocks are refused: they name blocks no longer stored.
      await expect(storage.writeBlockTraces([tracesOf(chain[4]!)])).rejects.toThrow(/writeBlockTraces/);
      await storage.writeBlockTraces(fork.map(tracesOf));
      await expectStoredChain(storage, [...chain.slice(0, 4), ...fork], chain.slice(4));

      await storage.rollbackTo(chain[0]!.block.number - 1n);
      expect(await storage.getTraceCursor()).toBeNull();
      expect(await storage.getCursor()).toBeNull();
      await writeBlocks(storage, chain.slice(0, 2));
      expect(await storage.getTraceCursor()).toBe(chain[0]!.block.number - 1n);
    });

    test('writeBlockTraces refuses traces that are not the next blocks’ or do not fit them, writing nothing of the call', async (storage) => {
      const chain = tracedChain();
      await writeBlocks(storage, chain.slice(0, 8));
      await storage.writeBlockTraces(chain.slice(0, 2).map(tracesOf));
      const next = chain.findIndex((b, i) => i >= 2 && b.internalTransactions.length > 1 && b.contracts.some((c) => c.traceIndex > 0));
      expect(next).toBeGreaterThanOrEqual(2);
      await storage.writeBlockTraces(chain.slice(2, next).map(tracesOf));
      const traces = tracesOf(chain[next]!);
      const [firstInternal, secondInternal] = traces.internalTransactions;
      const otherBlock = chain.find((b) => b.block.number !== traces.blockNumber && b.transactions.length > 0)!;
      const bad: [string, BlockTraces[]][] = [
        ['a skipped block', [tracesOf(chain[next + 1]!)]],
        ['a block traced already', [tracesOf(chain[next - 1]!)]],
        ['a block not written yet', chain.slice(next, 9).map(tracesOf)],
        ['another block’s hash', [{ ...traces, blockHash: fixtureAddress('other-block').padEnd(66, '0') as Hex }]],
        ['a transaction’s own creation', [{ ...traces, contracts: [{ ...traces.contracts[0]!, traceIndex: 0 }] }]],
        ['a creation naming another block’s transaction', [{ ...traces, contracts: [{ ...traces.contracts[0]!, transactionHash: otherBlock.transactions[0]!.hash }] }]],
        ['an internal transaction of another block', [{ ...traces, internalTransactions: [{ ...firstInternal!, blockNumber: otherBlock.block.number }] }]],
        ['an internal transaction of another time', [{ ...traces, internalTransactions: [{ ...firstInternal!, timestamp: firstInternal!.timestamp + 1n }] }]],
        ['internal transactions out of order', [{ ...traces, internalTransactions: [secondInternal!, firstInternal!] }]],
        ['good traces followed by bad ones', [traces, { ...tracesOf(chain[next + 1]!), blockHash: traces.blockHash }]],
      ];
      const stored = tracedThrough(chain.slice(0, 8), chain[next - 1]!.block.number);
      for (const [what, entries] of bad) {
        await expect(storage.writeBlockTraces(entries), what).rejects.toThrow(/writeBlockTraces/);
        expect(await storage.getTraceCursor(), what).toBe(chain[next - 1]!.block.number);
      }
      await expectStoredChain(storage, stored, chain.slice(8));
      await storage.writeBlockTraces(chain.slice(next, 8).map(tracesOf));
      await expectStoredChain(storage, chain.slice(0, 8), chain.slice(8));
    });
  });
}
