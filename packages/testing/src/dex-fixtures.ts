import { encodeAbiParameters, toEventSelector } from 'viem';
import { approvalsOf, type BlockBundle, type Hex, pairEventsOf, type StoredLog, tokenTransfersOf } from '@chainlens/core';

/**
 * Uniswap-V2 logs for fixtures: each rewrites one log of a bundle in place (keeping its place in
 * block, transaction and log order) into a standard pair event, encoded as a pair contract does.
 */

const word = (address: Hex): Hex => `0x${'0'.repeat(24)}${address.slice(2)}`;

/** `PairCreated(token0, token1, pair, index)` emitted by `factory`. */
export function pairCreatedLog(log: StoredLog, factory: Hex, token0: Hex, token1: Hex, pair: Hex, index = 1n): void {
  log.address = factory;
  log.topics = [toEventSelector('PairCreated(address,address,address,uint256)'), word(token0), word(token1)];
  log.data = encodeAbiParameters([{ type: 'address' }, { type: 'uint256' }], [pair, index]);
}

/** `Sync(reserve0, reserve1)` emitted by `pair`. */
export function syncLog(log: StoredLog, pair: Hex, reserve0: bigint, reserve1: bigint): void {
  log.address = pair;
  log.topics = [toEventSelector('Sync(uint112,uint112)')];
  log.data = encodeAbiParameters([{ type: 'uint112' }, { type: 'uint112' }], [reserve0, reserve1]);
}

/** `Swap(sender, amount0In, amount1In, amount0Out, amount1Out, to)` emitted by `pair`. */
export function swapLog(log: StoredLog, pair: Hex, amounts: [bigint, bigint, bigint, bigint], sender: Hex, to: Hex): void {
  log.address = pair;
  log.topics = [toEventSelector('Swap(address,uint256,uint256,uint256,uint256,address)'), word(sender), word(to)];
  log.data = encodeAbiParameters(Array.from({ length: 4 }, () => ({ type: 'uint256' })), amounts);
}

/** Decodes a bundle's token transfers, approvals and pair events again after its logs were rewritten. */
export function redecode(bundle: BlockBundle): void {
  bundle.tokenTransfers = tokenTransfersOf(bundle.logs, bundle.block.timestamp);
  bundle.approvals = approvalsOf(bundle.logs, bundle.block.timestamp);
  Object.assign(bundle, pairEventsOf(bundle.logs, bundle.block.timestamp));
}
