import { ConfigError, type BlockBundle, type Storage, type StorageLifecycle } from '@chainlens/core';
import { AccountStore } from './account-store.js';
import { MemoryBlockReader } from './block-reader.js';
import { ChainState } from './chain-state.js';
import { MemoryChartReader } from './chart-reader.js';
import { MemoryChainWriter } from './chain-writer.js';
import { composeRoles } from './compose-roles.js';
import { CounterStore } from './counter-store.js';
import { MemoryExportReader } from './export-reader.js';
import { LabelStore } from './label-store.js';
import { MemoryJoinedPageReader } from './joined-page-reader.js';
import { MemoryLogReader } from './log-reader.js';
import { MetadataStore } from './metadata-store.js';
import { MemoryPairReader } from './pair-reader.js';
import { MemoryTokenMetadata } from './token-metadata.js';
import { MemoryTokenReader } from './token-reader.js';
import { MemoryTransactionReader } from './transaction-reader.js';
import { VerificationStore } from './verification-store.js';
import { WebhookStore } from './webhook-store.js';

/** Options of {@link createMemoryStorage}. */
export interface MemoryStorageOptions {
  /**
   * Bundles written at creation, in order, with the same checks as `writeBlock` (a bad one
   * throws from `memoryStorage()`). Handy to preload demos and benchmarks without awaiting.
   */
  initialBlocks?: Iterable<BlockBundle>;
  /**
   * Most counters of `hitCounters` kept at once (default 100 000), a positive integer. Past it
   * the least recently hit are dropped, so a flood of distinct keys cannot exhaust memory; a
   * dropped rate-limit counter starts again from 0.
   */
  maxCounters?: number;
}

const DEFAULT_MAX_COUNTERS = 100_000;

/** Nothing to open or release: the data lives as long as the storage object. */
class MemoryLifecycle implements StorageLifecycle {
  async init(): Promise<void> {}

  async close(): Promise<void> {}

  async ping(): Promise<void> {}
}

/**
 * The Storage contract on in-process structures, one object per role: the chain roles over one
 * shared {@link ChainState}, each other role in a store of its own (users and keys, labels,
 * metadata, verification, counters, webhooks; rollbacks never touch them but the webhook
 * outbox, which the chain writes change with their blocks). Every method runs synchronously to
 * completion, so a reader never sees part of a block. Chain records are frozen copies taken on
 * write, handed out as they are; records that change after they are written are copied both ways.
 */
export function createMemoryStorage(options: MemoryStorageOptions = {}): Storage {
  const { maxCounters = DEFAULT_MAX_COUNTERS } = options;
  if (!Number.isSafeInteger(maxCounters) || maxCounters < 1) {
    throw new ConfigError('memoryStorage.maxCounters', 'must be a positive integer');
  }
  const chain = new ChainState();
  const webhooks = new WebhookStore();
  const counters = new CounterStore(maxCounters);
  return composeRoles(
    new MemoryLifecycle(),
    new MemoryChainWriter(chain, webhooks.outbox, options.initialBlocks ?? []),
    new MemoryBlockReader(chain),
    new MemoryTransactionReader(chain),
    new MemoryLogReader(chain),
    new MemoryTokenReader(chain),
    new MemoryJoinedPageReader(chain),
    new MemoryTokenMetadata(chain),
    new MemoryPairReader(chain),
    new MemoryChartReader(chain),
    new MemoryExportReader(chain),
    new AccountStore(),
    new LabelStore(),
    new MetadataStore(),
    new VerificationStore(),
    counters,
    webhooks,
  );
}
