import type { BlockBundle, BlockTraces, StoredContractCreation } from '@chainlens/core';
import { fixtureAddress } from './fixtures.js';

/** The address every fixture inner creation makes again (CREATE2 after a self-destruct). */
export const INNER_RECREATED = fixtureAddress('create2-again');

/**
 * Gives each successful transaction with a recipient two contract creations inside it, as call
 * traces report them (traceIndex 1 and 2, the second at one address every such transaction
 * creates again), and returns the chain (its bundles are changed in place).
 *
 * @example
 * const chain = withInnerCreations(makeChain({ blocks: 8 }));
 */
export function withInnerCreations(chain: BlockBundle[]): BlockBundle[] {
  for (const bundle of chain) {
    const inner = bundle.transactions
      .filter((tx) => tx.status === 1 && tx.to !== null)
      .flatMap((tx): StoredContractCreation[] => {
        const at = { transactionHash: tx.hash, blockNumber: tx.blockNumber, transactionIndex: tx.transactionIndex, creator: tx.to! };
        return [
          { ...at, address: fixtureAddress(`inner:${tx.hash}`), traceIndex: 1 },
          { ...at, address: INNER_RECREATED, traceIndex: 2 },
        ];
      });
    bundle.contracts = [...bundle.contracts, ...inner].sort((a, b) => a.transactionIndex - b.transactionIndex || a.traceIndex - b.traceIndex);
  }
  return chain;
}

/** A bundle as the indexer writes it before its traces: its transactions' own creations only, no internal transactions. */
export function withoutTraces(bundle: BlockBundle): BlockBundle {
  return { ...bundle, contracts: bundle.contracts.filter((creation) => creation.traceIndex === 0), internalTransactions: [] };
}

/** What a bundle's traces add to {@link withoutTraces}. */
export function tracesOf(bundle: BlockBundle): BlockTraces {
  return {
    blockNumber: bundle.block.number,
    blockHash: bundle.block.hash,
    contracts: bundle.contracts.filter((creation) => creation.traceIndex > 0),
    internalTransactions: bundle.internalTransactions,
  };
}

/** The chain as stored once its blocks through `tracedThrough` are traced: later blocks {@link withoutTraces}. */
export function tracedThrough(chain: readonly BlockBundle[], tracedThrough: bigint): BlockBundle[] {
  return chain.map((bundle) => (bundle.block.number <= tracedThrough ? bundle : withoutTraces(bundle)));
}
