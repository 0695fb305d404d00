import type { RpcBlock, RpcLog, RpcReceipt, RpcTransaction } from '../chain/rpc-types.js';
import type { BlockBundle, Hex, StoredLog, StoredTransaction } from '../storage/index.js';
import { pairEventsOf } from '../prices/pair-events.js';
import { contractCreationsOf } from './contract-creations.js';
import { approvalsOf } from '../tokens/token-approvals.js';
import { tokenTransfersOf } from '../tokens/token-transfers.js';

/**
 * Turns a node's block (with full transactions) and its receipts into one storage bundle; its
 * contracts are the transactions' own creations (the trace indexer adds those inside them, and
 * the internal transactions, from call traces). The block's number, hash and timestamp, and a
 * transaction's hash, are one value each, shared by every record that names them once checked
 * equal: an indexer that keeps every block would otherwise keep (and its collector copy) a copy
 * per transaction and log.
 */
export function toBundle(block: RpcBlock, receipts: readonly RpcReceipt[]): BlockBundle {
  if (receipts.length !== block.transactions.length) {
    throw new Error(`block ${block.number}: ${block.transactions.length} transactions but ${receipts.length} receipts`);
  }
  const at: BlockAt = { number: BigInt(block.number), numberHex: block.number, hash: hex(block.hash), timestamp: BigInt(block.timestamp) };
  const byHash = new Map<string, RpcReceipt>();
  for (const receipt of receipts) byHash.set(receipt.transactionHash.toLowerCase(), receipt);

  const transactions: StoredTransaction[] = [];
  const logs: StoredLog[] = [];
  for (const tx of block.transactions) {
    const receipt = byHash.get(tx.hash.toLowerCase());
    if (!receipt || receipt.blockHash.toLowerCase() !== at.hash || !isBlockNumber(receipt.blockNumber, at)) {
      throw new Error(`block ${block.number}: no receipt of this block for ${tx.hash}`);
    }
    const stored = toTransaction(tx, receipt, at);
    transactions.push(stored);
    for (const log of receipt.logs) logs.push(toLog(log, stored, at));
  }
  logs.sort((a, b) => a.logIndex - b.logIndex);
  const { timestamp } = at;

  return {
    block: {
      number: at.number,
      hash: at.hash,
      parentHash: hex(block.parentHash),
      timestamp,
      miner: hex(block.miner),
      gasUsed: BigInt(block.gasUsed),
      gasLimit: BigInt(block.gasLimit),
      baseFeePerGas: block.baseFeePerGas == null ? null : BigInt(block.baseFeePerGas),
      difficulty: BigInt(block.difficulty ?? 0),
      size: BigInt(block.size ?? 0),
      stateRoot: hex(block.stateRoot),
      transactionsRoot: hex(block.transactionsRoot),
      receiptsRoot: hex(block.receiptsRoot),
      extraData: hex(block.extraData),
      transactionCount: block.transactions.length,
    },
    transactions,
    logs,
    tokenTransfers: tokenTransfersOf(logs, timestamp),
    ...pairEventsOf(logs, timestamp),
    approvals: approvalsOf(logs, timestamp),
    contracts: contractCreationsOf(transactions, null),
    internalTransactions: [],
  };
}

/** The block's values its records share. */
interface BlockAt {
  number: bigint;
  /** As the node wrote it, to compare with what its receipts and logs say. */
  numberHex: string;
  hash: Hex;
  timestamp: bigint;
}

function toTransaction(tx: RpcTransaction, receipt: RpcReceipt, at: BlockAt): StoredTransaction {
  const maxFeePerGas = tx.maxFeePerGas == null ? null : BigInt(tx.maxFeePerGas);
  const gasPrice = tx.gasPrice != null ? BigInt(tx.gasPrice) : (maxFeePerGas ?? 0n);
  return {
    hash: hex(tx.hash),
    blockNumber: at.number,
    blockHash: at.hash,
    transactionIndex: Number(receipt.transactionIndex),
    timestamp: at.timestamp,
    from: hex(tx.from),
    to: tx.to ? hex(tx.to) : null,
    value: BigInt(tx.value),
    gas: BigInt(tx.gas),
    gasPrice,
    maxFeePerGas,
    maxPriorityFeePerGas: tx.maxPriorityFeePerGas == null ? null : BigInt(tx.maxPriorityFeePerGas),
    nonce: BigInt(tx.nonce),
    input: hex(tx.input),
    type: tx.type == null ? 0 : Number(tx.type),
    status: receipt.status === '0x0' ? 0 : 1,
    gasUsed: BigInt(receipt.gasUsed),
    cumulativeGasUsed: BigInt(receipt.cumulativeGasUsed),
    effectiveGasPrice: receipt.effectiveGasPrice != null ? BigInt(receipt.effectiveGasPrice) : gasPrice,
    // Some nodes report the would-be address of a failed creation; no contract exists there.
    contractAddress: receipt.contractAddress && receipt.status !== '0x0' ? hex(receipt.contractAddress) : null,
    logsBloom: hex(receipt.logsBloom),
  };
}

function toLog(log: RpcLog, tx: StoredTransaction, at: BlockAt): StoredLog {
  if (!isBlockNumber(log.blockNumber, at) || log.blockHash.toLowerCase() !== at.hash || log.transactionHash.toLowerCase() !== tx.hash) {
    throw new Error(`block ${at.number}: log ${log.logIndex} of ${tx.hash} names block ${log.blockNumber} (${log.blockHash}) and transaction ${log.transactionHash}`);
  }
  return {
    address: hex(log.address),
    // The node's own list where it is lowercase already, as nodes write it: one list less per log.
    topics: log.topics.every((topic) => topic === topic.toLowerCase()) ? (log.topics as Hex[]) : log.topics.map(hex),
    data: hex(log.data),
    blockNumber: at.number,
    blockHash: at.hash,
    transactionHash: tx.hash,
    transactionIndex: Number(log.transactionIndex),
    logIndex: Number(log.logIndex),
  };
}

/** Whether a quantity the node wrote is the block's number: as written (the usual case, no parse), else by value. */
function isBlockNumber(quantity: string, at: BlockAt): boolean {
  return quantity === at.numberHex || BigInt(quantity) === at.number;
}

function hex(value: string): Hex {
  return value.toLowerCase() as Hex;
}
