import type { Logger } from 'pino';
import type { ChainClient } from '../chain/chain-client.js';
import { isMethodUnavailable } from '../chain/node-rpc-error.js';
import { BatchRefusedError } from '../chain/rpc-batch.js';
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

/** Blocks whose `trace_block` calls travel in one batch request. */
const FLAT_BLOCKS_PER_READ = 20;

/**
 * Reads blocks' call traces and turns them into what they add to each block: the contracts
 * created inside its transactions and its internal transactions. It asks for OpenEthereum's flat
 * `trace_block` where the node has it (Erigon, Nethermind, Reth, Besu and anvil keep or cheaply
 * compute them: on anvil a block of 50 token transfers takes ~1 ms, against ~100 ms for a
 * re-execution), several blocks' calls in one batch request, else geth's `debug_traceBlockByHash`
 * with the call tracer, one block a read. Only a node that answers it has neither method (see
 * {@link isMethodUnavailable}) before it ever traced is taken not to trace (told once); every other
 * failure, and any after the first trace, is the caller's to retry.
 */
export class BlockTracer {
  #support: TraceSupport = 'unknown';
  /** Which of the two methods this node answers; `unknown` until one answered. */
  #method: 'unknown' | 'trace_block' | 'debug_traceBlockByHash' = 'unknown';
  /** Whether the node answers JSON-RPC batches (else each `trace_block` goes on its own). */
  #batches = true;

  constructor(
    private readonly chain: ChainClient,
    private readonly logger: Logger,
  ) {}

  get support(): TraceSupport {
    return this.#support;
  }

  /** How many blocks one read should hold: a batch where `trace_block` is the method, else one (each is a re-execution). */
  get blocksPerRead(): number {
    return this.#method === 'trace_block' ? FLAT_BLOCKS_PER_READ : 1;
  }

  /**
   * The blocks' traces, in order; `null` when the node does not trace. Read by number but checked
   * against each block's hash (by hash on the debug API): a reorg between the reads cannot pair a
   * block with another one's traces.
   */
  async trace(blocks: readonly BlockToTrace[]): Promise<BlockTraces[] | null> {
    let frames: RpcCallFrame[][];
    try {
      frames = this.#method === 'debug_traceBlockByHash' ? await Promise.all(blocks.map((block) => this.#debugFrames(block))) : await this.#flatFrames(blocks);
    } catch (error) {
      if (isMethodUnavailable(error) && this.#support === 'unknown') {
        this.#support = 'no';
        this.logger.warn({ err: error }, 'the node does not trace blocks (trace_block, debug_traceBlockByHash): contracts created inside transactions and internal transactions are not discovered');
        return null;
      }
      throw error;
    }
    this.#support = 'yes';
    return blocks.map((block, i) => ({
      blockNumber: block.number,
      blockHash: block.hash,
      contracts: contractCreationsOf(block.transactions, frames[i]!).filter((creation) => creation.traceIndex > 0),
      internalTransactions: blockInternalTransactionsOf(block.transactions, frames[i]!),
    }));
  }

  /** Each block's call trees from `trace_block`; falls back to the debug API for good where the node answers it has no `trace_block`. */
  async #flatFrames(blocks: readonly BlockToTrace[]): Promise<RpcCallFrame[][]> {
    let answers: (FlatTrace[] | null)[];
    try {
      answers = await this.#traceBlocks(blocks);
    } catch (error) {
      // Reads start together: another's refusal may already have turned this node to the debug API.
      if (!isMethodUnavailable(error) || this.#method === 'trace_block') throw error;
      this.#method = 'debug_traceBlockByHash';
      return Promise.all(blocks.map((block) => this.#debugFrames(block)));
    }
    this.#method = 'trace_block';
    return blocks.map((block, i) => framesOfFlatTraces(block, answers[i] ?? []));
  }

  /** `trace_block` of each block, as one batch where the node answers batches; the first refusal is thrown. */
  async #traceBlocks(blocks: readonly BlockToTrace[]): Promise<(FlatTrace[] | null)[]> {
    const calls = blocks.map((block) => ({ method: 'trace_block', params: [quantity(block.number)] }));
    if (this.#batches) {
      try {
        const outcomes = await this.chain.batch(calls);
        return outcomes.map((outcome) => {
          if ('error' in outcome) throw outcome.error;
          return outcome.result as FlatTrace[] | null;
        });
      } catch (error) {
        if (!(error instanceof BatchRefusedError)) throw error;
        this.#batches = false;
      }
    }
    return Promise.all(calls.map((call) => this.chain.request<FlatTrace[] | null>(call.method, call.params)));
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

/** A block's transactions' call trees from its flat traces, which must all be of that block (by hash) and of its transactions, in order. */
function framesOfFlatTraces(block: BlockToTrace, traces: readonly FlatTrace[]): RpcCallFrame[] {
  const byPosition = new Map<number, FlatTrace[]>();
  for (const trace of traces) {
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
