import type { BlockBundle, Hex, InternalTransactionsQuery, StoredInternalTransaction } from '@chainlens/core';
import { fixtureAddress } from './fixtures.js';

/** The address every fixture creation makes again (CREATE2 after a self-destruct). */
export const FIXTURE_RECREATED = fixtureAddress('internal:create2-again');

/**
 * Gives each successful transaction with a recipient internal transactions, as call traces would
 * report them, and returns the chain (its bundles are changed in place): a value call from the
 * recipient to a pool address, a failed call inside it, every third one a self-call, every other
 * a creation, and a self-destruct paying the sender back. Deterministic, like `makeChain`.
 *
 * @example
 * const chain = withInternalTransactions(makeChain({ blocks: 8 }));
 */
export function withInternalTransactions(chain: BlockBundle[], pool: readonly Hex[] = [fixtureAddress(0), fixtureAddress(1), fixtureAddress(2)]): BlockBundle[] {
  let k = 0;
  for (const bundle of chain) {
    bundle.internalTransactions = bundle.transactions
      .filter((tx) => tx.status === 1 && tx.to !== null)
      .flatMap((tx) => {
        const at = { blockNumber: tx.blockNumber, transactionIndex: tx.transactionIndex, transactionHash: tx.hash, timestamp: tx.timestamp };
        const contract = tx.to!;
        const frames: Omit<StoredInternalTransaction, keyof typeof at | 'traceIndex'>[] = [
          { traceId: '0', type: 'call', from: contract, to: pool[k % pool.length]!, value: 1_000n + BigInt(k), gas: 50_000n, gasUsed: 21_000n, error: null },
          { traceId: '0_0', type: 'call', from: pool[k % pool.length]!, to: pool[(k + 1) % pool.length]!, value: 7n, gas: 9_000n, gasUsed: 9_000n, error: 'execution reverted' },
        ];
        if (k % 3 === 0) frames.push({ traceId: '1', type: 'call', from: contract, to: contract, value: 5n, gas: 2_300n, gasUsed: 0n, error: null });
        if (k % 2 === 0) frames.push({ traceId: '2', type: 'create2', from: contract, to: FIXTURE_RECREATED, value: 0n, gas: 200_000n, gasUsed: 120_000n, error: null });
        frames.push({ traceId: '3', type: 'selfdestruct', from: contract, to: tx.from, value: 1n, gas: 0n, gasUsed: 0n, error: null });
        k += 1;
        return frames.map((frame, traceIndex) => ({ ...at, traceIndex, ...frame }));
      });
  }
  return chain;
}

/** Every internal transaction of the chain, in chain order. */
export function chainInternalTransactions(chain: readonly BlockBundle[]): StoredInternalTransaction[] {
  return chain.flatMap((bundle) => bundle.internalTransactions);
}

/**
 * What `listInternalTransactions` must return.
 *
 * @example
 * expect(await storage.listInternalTransactions(query)).toEqual(referenceInternalTransactions(chain, query));
 */
export function referenceInternalTransactions(chain: readonly BlockBundle[], query: InternalTransactionsQuery): StoredInternalTransaction[] {
  const matching = chainInternalTransactions(chain).filter(
    (internal) =>
      (query.address === undefined || internal.from === query.address || internal.to === query.address) &&
      (query.startBlock === undefined || internal.blockNumber >= query.startBlock) &&
      (query.endBlock === undefined || internal.blockNumber <= query.endBlock),
  );
  if (query.sort === 'desc') matching.reverse();
  const start = (query.page - 1) * query.offset;
  return matching.slice(start, start + query.offset);
}
