import type { Logger } from 'pino';
import type { ChainClient } from '../chain/chain-client.js';
import { NodeRpcError } from '../chain/node-rpc-error.js';
import type { RpcBlockTrace } from '../chain/rpc-types.js';
import type { BlockTraces, Hex, StoredTransaction } from '../storage/index.js';
import { contractCreationsOf } from './contract-creations.js';
import { blockInternalTransactionsOf } from './internal-transactions.js';

/** Whether the node traces blocks: `unknown` until it answered a trace or refused the method. */
export type TraceSupport = 'unknown' | 'yes' | 'no';

/** A written block as its traces are read: its hash and its transactions in index order. */
export interface BlockToTrace {
  number: bigint;
  hash: Hex;
  transactions: readonly StoredTransaction[];
}

/**
 * Reads a block's call traces with one `debug_traceBlockByHash` (call tracer) and turns them into
 * what they add to the block: the contracts created inside its transactions and its internal
 * transactions. A node that refuses the method before it ever traced is taken not to trace (told
 * once); after that, every failure is the caller's to retry.
 */
export class BlockTracer {
  #support: TraceSupport = 'unknown';

  constructor(
    private readonly chain: ChainClient,
    private readonly logger: Logger,
  ) {}

  get support(): TraceSupport {
    return this.#support;
  }

  /**
   * The block's traces; `null` when the node does not trace. By hash: a reorg between the reads
   * cannot pair a block with another one's traces (the node then refuses an unknown hash).
   */
  async trace(block: BlockToTrace): Promise<BlockTraces | null> {
    let traces: RpcBlockTrace[] | null;
    try {
      traces = await this.chain.request<RpcBlockTrace[] | null>('debug_traceBlockByHash', [block.hash, { tracer: 'callTracer' }]);
    } catch (error) {
      if (error instanceof NodeRpcError && this.#support === 'unknown') {
        this.#support = 'no';
        this.logger.warn({ err: error }, 'the node does not trace blocks (debug_traceBlockByHash): contracts created inside transactions and internal transactions are not discovered');
        return null;
      }
      throw error;
    }
    this.#support = 'yes';
    const { transactions } = block;
    const matches = traces?.length === transactions.length && traces.every((trace, i) => trace.txHash === undefined || trace.txHash.toLowerCase() === transactions[i]!.hash);
    if (!traces || !matches) throw new Error(`block ${block.number}: the node's traces do not match its ${transactions.length} transactions`);
    const frames = traces.map((trace) => trace.result);
    return {
      blockNumber: block.number,
      blockHash: block.hash,
      contracts: contractCreationsOf(transactions, frames).filter((creation) => creation.traceIndex > 0),
      internalTransactions: blockInternalTransactionsOf(transactions, frames),
    };
  }
}
