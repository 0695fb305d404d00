import { decodeAbiParameters, toEventSelector } from 'viem';
import { addressOfWord } from '../abi/address-word.js';
import type { Hex, StoredLog, StoredTokenTransfer } from '../storage/index.js';

const TRANSFER = toEventSelector('Transfer(address,address,uint256)');
const TRANSFER_SINGLE = toEventSelector('TransferSingle(address,address,address,uint256,uint256)');
const TRANSFER_BATCH = toEventSelector('TransferBatch(address,address,address,uint256[],uint256[])');
const BATCH_DATA = [{ type: 'uint256[]' }, { type: 'uint256[]' }] as const;

/**
 * The token transfers carried by a block's logs, in (`logIndex`, `batchIndex`) order. ERC-20
 * and ERC-721 share the `Transfer` selector and are told apart by the standards' shapes: three
 * topics and one data word (ERC-20), four topics and no data (ERC-721). A log with a transfer
 * selector but another shape (a topic that is no address, data of the wrong size, batch arrays
 * of different lengths) is some other contract's event, not a transfer, and yields nothing.
 */
export function tokenTransfersOf(logs: readonly StoredLog[], timestamp: bigint): StoredTokenTransfer[] {
  const transfers: StoredTokenTransfer[] = [];
  for (const log of logs) {
    const selector = log.topics[0];
    if (selector === TRANSFER) transfers.push(...transferEvent(log, timestamp));
    else if (selector === TRANSFER_SINGLE) transfers.push(...transferSingle(log, timestamp));
    else if (selector === TRANSFER_BATCH) transfers.push(...transferBatch(log, timestamp));
  }
  return transfers;
}

type Movement = Pick<StoredTokenTransfer, 'standard' | 'operator' | 'from' | 'to' | 'value' | 'tokenId'>;

function transferEvent(log: StoredLog, timestamp: bigint): StoredTokenTransfer[] {
  const [, fromTopic, toTopic, idTopic] = log.topics;
  const from = addressOfWord(fromTopic);
  const to = addressOfWord(toTopic);
  if (from === null || to === null) return [];
  if (log.topics.length === 3 && log.data.length === 66) {
    return [record(log, timestamp, 0, { standard: 'ERC-20', operator: null, from, to, value: BigInt(log.data), tokenId: null })];
  }
  if (log.topics.length === 4 && log.data === '0x') {
    return [record(log, timestamp, 0, { standard: 'ERC-721', operator: null, from, to, value: 1n, tokenId: BigInt(idTopic!) })];
  }
  return [];
}

function transferSingle(log: StoredLog, timestamp: bigint): StoredTokenTransfer[] {
  const parties = erc1155Parties(log);
  if (parties === null || log.data.length !== 130) return [];
  const tokenId = BigInt(`0x${log.data.slice(2, 66)}`);
  const value = BigInt(`0x${log.data.slice(66)}`);
  return [record(log, timestamp, 0, { standard: 'ERC-1155', ...parties, value, tokenId })];
}

function transferBatch(log: StoredLog, timestamp: bigint): StoredTokenTransfer[] {
  const parties = erc1155Parties(log);
  if (parties === null) return [];
  let ids: readonly bigint[];
  let values: readonly bigint[];
  try {
    [ids, values] = decodeAbiParameters(BATCH_DATA, log.data);
  } catch {
    return [];
  }
  if (ids.length !== values.length) return [];
  return ids.map((tokenId, i) => record(log, timestamp, i, { standard: 'ERC-1155', ...parties, value: values[i]!, tokenId }));
}

function erc1155Parties(log: StoredLog): { operator: Hex; from: Hex; to: Hex } | null {
  if (log.topics.length !== 4) return null;
  const [, operatorTopic, fromTopic, toTopic] = log.topics;
  const operator = addressOfWord(operatorTopic);
  const from = addressOfWord(fromTopic);
  const to = addressOfWord(toTopic);
  return operator && from && to ? { operator, from, to } : null;
}

function record(log: StoredLog, timestamp: bigint, batchIndex: number, movement: Movement): StoredTokenTransfer {
  return {
    blockNumber: log.blockNumber,
    logIndex: log.logIndex,
    batchIndex,
    transactionHash: log.transactionHash,
    transactionIndex: log.transactionIndex,
    timestamp,
    token: log.address,
    ...movement,
  };
}
