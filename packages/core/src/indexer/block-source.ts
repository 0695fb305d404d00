import type { ChainClient } from '../chain/chain-client.js';
import { isMethodUnavailable } from '../chain/node-rpc-error.js';
import { BatchRefusedError, type RpcOutcome } from '../chain/rpc-batch.js';
import type { RpcBlock, RpcReceipt } from '../chain/rpc-types.js';
import type { BlockBundle } from '../storage/index.js';
import { toBundle } from './to-bundle.js';

/** A block header as the indexer compares it. */
export interface HeadInfo {
  number: bigint;
  hash: string;
  parentHash: string;
}

/**
 * Reads blocks from the node as bundles: the block and its receipts, nothing that costs the node
 * a re-execution (the trace indexer reads call traces behind it). Asks for the block and
 * `eth_getBlockReceipts` in one JSON-RPC batch while the node answers both, else in requests of
 * their own, and falls back to one `eth_getTransactionReceipt` per transaction where the node
 * answers it has no block receipts (any other failure is the caller's to retry).
 */
export class BlockSource {
  private blockReceipts: 'unknown' | 'yes' | 'no' = 'unknown';
  private batches: 'unknown' | 'yes' | 'no' = 'unknown';

  constructor(private readonly chain: ChainClient) {}

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
    const [block, receipts] = this.blockReceipts !== 'no' && this.batches !== 'no' ? await this.batchRead(tag) : await this.separateReads(tag);
    if (!block) return null;
    return toBundle(block, receipts ?? (await this.receiptsOneByOne(block)));
  }

  /** The block and its receipts (`null` where the node has none) in one batch; in two requests where the node refuses batches. */
  private async batchRead(tag: string): Promise<[RpcBlock | null, RpcReceipt[] | null]> {
    let outcomes;
    try {
      outcomes = await this.chain.batch([
        { method: 'eth_getBlockByNumber', params: [tag, true] },
        { method: 'eth_getBlockReceipts', params: [tag] },
      ]);
    } catch (error) {
      if (!(error instanceof BatchRefusedError) || this.batches !== 'unknown') throw error;
      this.batches = 'no';
      return this.separateReads(tag);
    }
    this.batches = 'yes';
    const [block, receipts] = outcomes as [RpcOutcome, RpcOutcome];
    if ('error' in block) throw block.error;
    if ('error' in receipts) {
      if (this.blockReceipts !== 'unknown' || !isMethodUnavailable(receipts.error)) throw receipts.error;
      this.blockReceipts = 'no';
      return [block.result as RpcBlock | null, null];
    }
    this.blockReceipts = 'yes';
    return [block.result as RpcBlock | null, receipts.result as RpcReceipt[] | null];
  }

  private async separateReads(tag: string): Promise<[RpcBlock | null, RpcReceipt[] | null]> {
    return Promise.all([
      this.chain.request<RpcBlock | null>('eth_getBlockByNumber', [tag, true]),
      this.blockReceipts === 'no' ? Promise.resolve(null) : this.tryBlockReceipts(tag),
    ]);
  }

  private async tryBlockReceipts(tag: string): Promise<RpcReceipt[] | null> {
    try {
      const receipts = await this.chain.request<RpcReceipt[] | null>('eth_getBlockReceipts', [tag]);
      this.blockReceipts = 'yes';
      return receipts;
    } catch (error) {
      if (isMethodUnavailable(error) && this.blockReceipts === 'unknown') {
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
