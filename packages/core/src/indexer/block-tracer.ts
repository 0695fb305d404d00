import type { Logger } from 'pino';
import type { ChainClient } from '../chain/chain-client.js';
import { NodeRpcError } from '../chain/node-rpc-error.js';
import { callFrameFromFlatTraces } from '../chain/flat-traces.js';
import type { FlatTrace, RpcBlockTrace, RpcCallFrame } from '../chain/rpc-types.js';
import { quantity } from './block-source.js';
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
 * Reads a block's call traces with one request and turns them into what they add to the block:
 * the contracts created inside its transactions and its internal transactions. It asks for
 * OpenEthereum's flat `trace_block` where the node has it (Erigon, Nethermind, Reth, Besu and
 * anvil keep or cheaply compute them: on anvil a block of 50 token transfers takes ~1 ms, against
 * ~100 ms for a re-execution), else geth's `debug_traceBlockByHash` with the call tracer. A node
 * that refuses both before it ever traced is taken not to trace (told once); after that, every
 * failure is the caller's to retry.
 */
export class BlockTracer {
  #support: TraceSupport = 'unknown';
  /** Which of the two methods this node answers; `unknown` until one answered. */
  #method: 'unknown' | 'trace_block' | 'debug_traceBlockByHash' = 'unknown';

  constructor(
    private readonly chain: ChainClient,
    private readonly logger: Logger,
  ) {}

  get support(): TraceSupport {
    return this.#support;
  }

  /**
   * The block's traces; `null` when the node does not trace. Read by number but checked against
   * the block's hash (by hash on the debug API): a reorg between the reads cannot pair a block
   * with another one's traces.
   */
  async trace(block: BlockToTrace): Promise<BlockTraces | null> {
    let frames: RpcCallFrame[];
    try {
      frames = this.#method === 'debug_traceBlockByHash' ? await this.#debugFrames(block) : await this.#flatFrames(block);
    } catch (error) {
      if (error instanceof NodeRpcError && this.#support === 'unknown') {
        this.#support = 'no';
        this.logger.warn({ err: error }, 'the node does not trace blocks (trace_block, debug_traceBlockByHash): contracts created inside transactions and internal transactions are not discovered');
        return null;
      }
      throw error;
    }
    this.#support = 'yes';
    return {
      blockNumber: block.number,
      blockHash: block.hash,
      contracts: contractCreationsOf(block.transactions, frames).filter((creation) => creation.traceIndex > 0),
      internalTransactions: blockInternalTransactionsOf(block.transactions, frames),
    };
  }

  /** Each transaction's call tree from `trace_block`; falls back to the debug API for good where the node has no `trace_block`. */
  async #flatFrames(block: BlockToTrace): Promise<RpcCallFrame[]> {
    let traces: FlatTrace[] | null;
    try {
      traces = await this.chain.request<FlatTrace[] | null>('trace_block', [quantity(block.number)]);
    } catch (error) {
      if (!(error instanceof NodeRpcError) || this.#method !== 'unknown') throw error;
      this.#method = 'debug_traceBlockByHash';
      return this.#debugFrames(block);
    }
    this.#method = 'trace_block';
    const byPosition = new Map<number, FlatTrace[]>();
    for (const trace of traces ?? []) {
      if (trace.type === 'reward') continue;
      if (trace.blockHash?.toLowerCase() !== block.hash) throw new Error(`block ${block.number}: the node's traces are of block ${trace.blockHash}, not ${block.hash}`);
      const position = trace.transactionPosition ?? -1;
      byPosition.set(position, [...(byPosition.get(position) ?? []), trace]);
    }
    return block.transactions.map((tx, i) => {
      const entries = byPosition.get(i) ?? [];
      const top = callFrameFromFlatTraces(entries);
      if (!top || entries.some((entry) => entry.transactionHash?.toLowerCase() !== tx.hash)) {
        throw new Error(`block ${block.number}: the node's traces do not match its ${block.transactions.length} transactions`);
      }
      return top;
    });
  }

  /** Each transaction's call tree from `debug_traceBlockByHash` with the call tracer. */
  async #debugFrames(block: BlockToTrace): Promise<RpcCallFrame[]> {
    const traces = await this.chain.request<RpcBlockTrace[] | null>('debug_traceBlockByHash', [block.hash, { tracer: 'callTracer' }]);
    this.#method = 'debug_traceBlockByHash';
    const { transactions } = block;
    const matches = traces?.length === transactions.length && traces.every((trace, i) => trace.txHash === undefined || trace.txHash.toLowerCase() === transactions[i]!.hash);
    if (!traces || !matches) throw new Error(`block ${block.number}: the node's traces do not match its ${transactions.length} transactions`);
    return traces.map((trace) => trace.result);
  }
}
