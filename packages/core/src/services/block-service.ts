import { BlockNotFoundError } from '../errors/index.js';
import type { BlockTag } from '../values/block-tag.js';
import type { BlockBundle, BlockReader, ChainCursors, Hex, StoredBlock, TransactionReader } from '../storage/index.js';
import type { ChainRecordCache } from './chain-record-cache.js';
import type { IndexedHead } from '../events/indexed-head.js';
import { lastBlockAtOrBefore } from './block-at-time.js';
import { formatBlock, type BlockRecord } from './format.js';
import type { LabelLookup } from './address-labels.js';
import type { z } from 'zod';
import type { blockFeeRewardRecordSchema } from '../records/etherscan-record-schemas.js';

/** A block's miner and the priority fees its transactions paid that miner. */
export type BlockFeeRewardRecord = z.infer<typeof blockFeeRewardRecordSchema>;

/** Blocks by number or `latest`, from indexed data. */
export class BlockService {
  constructor(
    private readonly storage: BlockReader & TransactionReader & ChainCursors,
    private readonly head: IndexedHead,
    private readonly records: ChainRecordCache,
    private readonly labels: LabelLookup,
    /** The first block indexing covers (`startBlock`): none below it is stored. */
    private readonly firstBlock: bigint = 0n,
  ) {}

  /**
   * The indexed block closest to a Unix time: the newest at or before it (`before`), or the
   * oldest at or after it (`after`); `null` when no indexed block lies on that side.
   */
  async numberAt(timestamp: bigint, closest: 'before' | 'after'): Promise<bigint | null> {
    const cursor = await this.head.current();
    if (!cursor || cursor.number < this.firstBlock) return null;
    const before = await lastBlockAtOrBefore(this.storage, this.firstBlock, cursor.number, closest === 'before' ? timestamp : timestamp - 1n);
    if (closest === 'before') return before?.number ?? null;
    const after = before ? before.number + 1n : this.firstBlock;
    return after <= cursor.number ? after : null;
  }

  /** The stored block at `tag`; `latest` is the newest indexed block. */
  async resolve(tag: BlockTag): Promise<StoredBlock> {
    const block = await this.storage.getBlockByNumber(await this.numberOf(tag));
    if (!block) throw new BlockNotFoundError();
    return block;
  }

  /** The priority fees block `number`'s transactions paid its miner ({@link BlockFeeRewardRecord}). */
  async feeReward(number: bigint): Promise<BlockFeeRewardRecord> {
    const [reward] = await this.feeRewards([number]);
    if (!reward) throw new BlockNotFoundError();
    return reward;
  }

  /**
   * The blocks `miner` mined, newest first, `offset` to a page, each with the priority fees its
   * transactions paid ({@link BlockFeeRewardRecord}).
   */
  async minedBlocks(miner: Hex, page: number, offset: number): Promise<BlockFeeRewardRecord[]> {
    const blocks = await this.storage.listMinerBlocks({ miner, page, offset });
    return (await this.feeRewards(blocks.map((block) => block.number))).filter((reward) => reward !== null);
  }

  /** {@link feeReward} of each of `numbers`, `null` for a block not stored; two storage reads for all. */
  private async feeRewards(numbers: bigint[]): Promise<(BlockFeeRewardRecord | null)[]> {
    const found = await this.storage.getBlocksWithTransactionHashes(numbers);
    const hashes = found.flatMap((entry) => entry?.transactionHashes ?? []);
    const transactions = new Map((await this.storage.getTransactions(hashes)).flatMap((tx) => (tx ? [[tx.hash, tx] as const] : [])));
    return found.map((entry) => {
      if (!entry) return null;
      const baseFee = entry.block.baseFeePerGas ?? 0n;
      let priorityFees = 0n;
      for (const hash of entry.transactionHashes) {
        const tx = transactions.get(hash);
        // A block rolled away between the two reads has no transactions left to add up.
        if (!tx) return null;
        // Deposit-style transactions pay no gas at all, never less than nothing.
        if (tx.effectiveGasPrice > baseFee) priorityFees += tx.gasUsed * (tx.effectiveGasPrice - baseFee);
      }
      const { block } = entry;
      return { blockNumber: block.number.toString(), timestamp: block.timestamp.toString(), miner: block.miner, priorityFees: priorityFees.toString() };
    });
  }

  /** The stored block with hash `hash`. */
  async byHash(hash: Hex): Promise<StoredBlock> {
    const block = await this.storage.getBlockByHash(hash);
    if (!block) throw new BlockNotFoundError();
    return block;
  }

  async getBlock(tag: BlockTag): Promise<BlockRecord> {
    const found = await this.records.blockWithTransactionHashes(this.storage, await this.numberOf(tag));
    if (!found) throw new BlockNotFoundError();
    return formatBlock(found.block, found.transactionHashes, await this.labels.labelsOf([found.block.miner]));
  }

  /**
   * Blocks by number as {@link getBlock} shapes them, in input order, `null` where none is
   * stored: two reads for all of them (GraphQL batches the blocks a query reaches through this).
   */
  async getMany(numbers: readonly bigint[]): Promise<(BlockRecord | null)[]> {
    const found = await this.storage.getBlocksWithTransactionHashes([...numbers]);
    const labels = await this.labels.labelsOf(found.map((one) => one?.block.miner ?? null));
    return found.map((one) => (one ? formatBlock(one.block, one.transactionHashes, labels) : null));
  }

  /**
   * The newest stored block's number as storage answers now, not the indexed head's kept value
   * (`null` before the first block): what a replay of stored blocks must run up to, so that it
   * meets the live blocks with no gap.
   */
  async storedHead(): Promise<bigint | null> {
    return (await this.storage.getCursor())?.number ?? null;
  }

  /** Everything block `number` brought, as written; `null` when it is not stored (or was rolled back). */
  bundle(number: bigint): Promise<BlockBundle | null> {
    return this.storage.getBlockBundle(number);
  }

  /**
   * Indexed blocks, newest first, `offset` to a page: page 1 starts at the newest indexed block.
   * Empty before the first block and past the first indexed one.
   */
  async list(page: number, offset: number): Promise<BlockRecord[]> {
    const numbers = await this.pageNumbers(page, offset);
    const found = (await this.storage.getBlocksWithTransactionHashes(numbers)).filter((entry) => entry !== null);
    const labels = await this.labels.labelsOf(found.map((entry) => entry.block.miner));
    return found.map((entry) => formatBlock(entry.block, entry.transactionHashes, labels));
  }

  /** The numbers of page `page` of indexed blocks, newest first. */
  private async pageNumbers(page: number, offset: number): Promise<bigint[]> {
    const cursor = await this.head.current();
    if (!cursor) return [];
    const numbers: bigint[] = [];
    const top = cursor.number - BigInt(page - 1) * BigInt(offset);
    for (let n = top; n > top - BigInt(offset) && n >= this.firstBlock; n--) numbers.push(n);
    return numbers;
  }

  /** The number `tag` names: `latest` is the newest indexed block (`BLOCK_NOT_FOUND` before there is one). */
  async numberOf(tag: BlockTag): Promise<bigint> {
    if (tag !== 'latest') return tag;
    const cursor = await this.head.current();
    if (!cursor) throw new BlockNotFoundError();
    return cursor.number;
  }

  /**
   * A block range's bounds as numbers. A lower bound of `latest` is the newest indexed block; an
   * upper one is no bound, which reads through the newest indexed block all the same and, unlike
   * the lower one, means something before anything is indexed.
   */
  async bounds(range: { start?: BlockTag; end?: BlockTag }): Promise<{ startBlock?: bigint; endBlock?: bigint }> {
    return {
      startBlock: range.start === undefined ? undefined : await this.numberOf(range.start),
      endBlock: range.end === 'latest' ? undefined : range.end,
    };
  }
}
