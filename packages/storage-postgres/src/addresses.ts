import type { Hex, StoredTransaction } from '@chainlens/core';
import { byteaArray, integerArray } from './codec.js';

/** The fields of a transaction that list it under addresses. */
export type AddressedTransaction = Pick<
  StoredTransaction,
  'from' | 'to' | 'contractAddress' | 'blockNumber' | 'transactionIndex'
>;

/**
 * The addresses a transaction is listed under: sender, recipient and created contract, each
 * once (a self-send is listed once).
 */
function involvedAddresses({ from, to, contractAddress }: AddressedTransaction): Hex[] {
  const addresses: Hex[] = [from];
  if (to !== null && to !== from) addresses.push(to);
  if (contractAddress !== null && contractAddress !== from && contractAddress !== to) addresses.push(contractAddress);
  return addresses;
}

/**
 * The address_transactions rows of `transactions`, one per (address, transaction), as array
 * literals ready for `unnest`. `fromEnd` counts the address's later rows in the same block: a
 * row's ordinal is the address's count after the block less it.
 */
export function addressRows(transactions: readonly AddressedTransaction[]): {
  addresses: string;
  blockNumbers: string;
  transactionIndexes: string;
  fromEnd: string;
} {
  const addresses: Hex[] = [];
  const blockNumbers: bigint[] = [];
  const transactionIndexes: number[] = [];
  for (const tx of transactions) {
    for (const address of involvedAddresses(tx)) {
      addresses.push(address);
      blockNumbers.push(tx.blockNumber);
      transactionIndexes.push(tx.transactionIndex);
    }
  }
  const later = new Map<Hex, number>();
  const fromEnd = new Array<number>(addresses.length);
  for (let i = addresses.length - 1; i >= 0; i--) {
    const address = addresses[i]!;
    const seen = later.get(address) ?? 0;
    fromEnd[i] = seen;
    later.set(address, seen + 1);
  }
  return {
    addresses: byteaArray(addresses),
    blockNumbers: integerArray(blockNumbers),
    transactionIndexes: integerArray(transactionIndexes),
    fromEnd: integerArray(fromEnd),
  };
}

/**
 * Per distinct address, how many of `transactions` it is listed under: what address_stats
 * moves by. Array literals ready for `unnest`.
 */
export function addressCounts(transactions: readonly AddressedTransaction[]): { addresses: string; counts: string } {
  const counts = new Map<Hex, number>();
  for (const tx of transactions) {
    for (const address of involvedAddresses(tx)) counts.set(address, (counts.get(address) ?? 0) + 1);
  }
  return { addresses: byteaArray([...counts.keys()]), counts: integerArray([...counts.values()]) };
}
