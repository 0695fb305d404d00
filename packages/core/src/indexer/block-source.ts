import type { ChainClient } from '../chain/chain-client.js';
import { NodeRpcError } from '../chain/node-rpc-error.js';
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
 * a re-execution (the trace indexer reads call traces behind it). Uses `eth_getBlockReceipts` (one
 * call per block) while the node has it and falls back to one `eth_getTransactionReceipt` per
 * transaction otherwise.
 */
export class BlockSource {
  private blockReceipts: 'unknown' | 'yes' | 'no' = 'unknown';

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
    const [block, receipts] = await Promise.all([
      this.chain.request<RpcBlock | null>('eth_getBlockByNumber', [tag, true]),
      this.blockReceipts === 'no' ? Promise.resolve(null) : this.tryBlockReceipts(tag),
    ]);
    if (!block) return null;
    return toBundle(block, receipts ?? (await this.receiptsOneByOne(block)));
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
