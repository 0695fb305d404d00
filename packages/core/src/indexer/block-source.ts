import type { ChainClient } from '../chain/chain-client.js';
import { NodeRpcError } from '../chain/node-rpc-error.js';
import type { Logger } from 'pino';
import type { RpcBlock, RpcBlockTrace, RpcReceipt } from '../chain/rpc-types.js';
import type { BlockBundle } from '../storage/index.js';
import { contractCreationsOf, mayCreateInside } from './contract-creations.js';
import { blockInternalTransactionsOf } from './internal-transactions.js';
import { toBundle } from './to-bundle.js';

/** A block header as the indexer compares it. */
export interface HeadInfo {
  number: bigint;
  hash: string;
  parentHash: string;
}

/** Options of {@link BlockSource}. */
export interface BlockSourceOptions {
  /** Read call traces to find contracts created and internal transactions inside transactions (default `true`). */
  traces?: boolean;
  /** Told once when the node turns out not to trace. */
  logger?: Logger;
}

/**
 * Reads blocks from the node as bundles. Uses `eth_getBlockReceipts` (one call per block) while
 * the node has it and falls back to one `eth_getTransactionReceipt` per transaction otherwise.
 * With traces on, a block in which some transaction ran code is traced with one
 * `debug_traceBlockByHash` (blocks of plain transfers need none), until the node shows it has
 * no such method; the same traces give the contracts created inside transactions and their
 * internal transactions.
 */
export class BlockSource {
  private blockReceipts: 'unknown' | 'yes' | 'no' = 'unknown';
  private traces: 'unknown' | 'yes' | 'no';

  constructor(
    private readonly chain: ChainClient,
    private readonly options: BlockSourceOptions = {},
  ) {
    this.traces = options.traces === false ? 'no' : 'unknown';
  }

  /** The node's newest block header. */
  async latest(): Promise<HeadInfo> {
    return toHead(await this.chain.request<RpcBlock<string>>('eth_getBlockByNumber', ['latest', false]));
  }

  /** The header at `number`, or `null` when the node has no such block (yet). */
  async header(number: bigint): Promise<HeadInfo | null> {
    const block = await this.chain.request<RpcBlock<string> | null>('eth_getBlockByNumber', [quantity(number), false]);
    return block ? toHead(block) : null;
  }

  /** The bundle of block `number`, or `null` when the node has no such block (yet). */
  async bundle(number: bigint): Promise<BlockBundle | null> {
    const tag = quantity(number);
    const [block, receipts] = await Promise.all([
      this.chain.request<RpcBlock | null>('eth_getBlockByNumber', [tag, true]),
      this.blockReceipts === 'no' ? Promise.resolve(null) : this.tryBlockReceipts(tag),
    ]);
    if (!block) return null;
    const bundle = toBundle(block, receipts ?? (await this.receiptsOneByOne(block)));
    if (this.traces === 'no' || !mayCreateInside(bundle.transactions)) return bundle;
    // By hash: a reorg between the calls cannot pair this block with another one's traces.
    const traces = await this.tryTraces(block.hash);
    if (traces === undefined) return bundle;
    const matches = traces?.length === block.transactions.length && traces.every((trace, i) => trace.txHash === undefined || trace.txHash.toLowerCase() === bundle.transactions[i]!.hash);
    if (!traces || !matches) throw new Error(`block ${block.number}: the node's traces do not match its ${block.transactions.length} transactions`);
    const frames = traces.map((trace) => trace.result);
    return { ...bundle, contracts: contractCreationsOf(bundle.transactions, frames), internalTransactions: blockInternalTransactionsOf(bundle.transactions, frames) };
  }

  /** The block's traces; `null` when the node has no such block, `undefined` when it does not trace. */
  private async tryTraces(blockHash: string): Promise<RpcBlockTrace[] | null | undefined> {
    try {
      const traces = await this.chain.request<RpcBlockTrace[] | null>('debug_traceBlockByHash', [blockHash, { tracer: 'callTracer' }]);
      this.traces = 'yes';
      return traces;
    } catch (error) {
      if (error instanceof NodeRpcError && this.traces === 'unknown') {
        this.traces = 'no';
        this.options.logger?.warn({ err: error }, 'the node does not trace blocks (debug_traceBlockByHash): contracts created inside transactions and internal transactions are not discovered');
        return undefined;
      }
      throw error;
    }
  }

  private async tryBlockReceipts(tag: string): Promise<RpcReceipt[] | null> {
    try {
      const receipts = await this.chain.request<RpcReceipt[] | null>('eth_getBlockReceipts', [tag]);
      this.blockReceipts = 'yes';
      return receipts;
    } catch (error) {
      if (error instanceof NodeRpcError && this.blockReceipts === 'unknown') {
        this.blockReceipts = 'no';
        return null;
      }
      throw error;
    }
  }

  private receiptsOneByOne(block: RpcBlock): Promise<RpcReceipt[]> {
    return Promise.all(
      block.transactions.map(async (tx) => {
        const receipt = await this.chain.request<RpcReceipt | null>('eth_getTransactionReceipt', [tx.hash]);
        if (!receipt) throw new Error(`receipt of ${tx.hash} is not available yet`);
        return receipt;
      }),
    );
  }
}

function toHead(block: RpcBlock<string>): HeadInfo {
  return { number: BigInt(block.number), hash: block.hash.toLowerCase(), parentHash: block.parentHash.toLowerCase() };
}

/** A JSON-RPC quantity (`0x`-hex without leading zeros). */
export function quantity(value: bigint | number): string {
  return `0x${value.toString(16)}`;
}
