import { BlockNotFoundError } from '../errors/index.js';
import type { Storage, StoredBlock } from '../storage/index.js';
import type { IndexedHead } from './indexed-head.js';
import { formatBlock, type BlockRecord } from './format.js';

/** State root record (spec: State root). */
export interface StateRootRecord {
  blockNumber: string;
  stateRoot: string;
  timestamp: string;
  blockHash: string;
  parentHash: string;
}

/** Blocks by number or `latest`, from indexed data. */
export class BlockService {
  constructor(
    private readonly storage: Storage,
    private readonly head: IndexedHead,
  ) {}

  /** The stored block at `tag`; `latest` is the newest indexed block. */
  async resolve(tag: bigint | 'latest'): Promise<StoredBlock> {
    const block = await this.storage.getBlockByNumber(await this.numberOf(tag));
    if (!block) throw new BlockNotFoundError();
    return block;
  }

  async getBlock(tag: bigint | 'latest'): Promise<BlockRecord> {
    const found = await this.storage.getBlockWithTransactionHashes(await this.numberOf(tag));
    if (!found) throw new BlockNotFoundError();
    return formatBlock(found.block, found.transactionHashes);
  }

  private async numberOf(tag: bigint | 'latest'): Promise<bigint> {
    if (tag !== 'latest') return tag;
    const cursor = await this.head.current();
    if (!cursor) throw new BlockNotFoundError();
    return cursor.number;
  }

  async stateRoot(tag: bigint | 'latest'): Promise<StateRootRecord> {
    const block = await this.resolve(tag);
    return {
      blockNumber: block.number.toString(),
      stateRoot: block.stateRoot,
      timestamp: block.timestamp.toString(),
      blockHash: block.hash,
      parentHash: block.parentHash,
    };
  }
}
