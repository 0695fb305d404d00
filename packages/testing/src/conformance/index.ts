import { describe } from 'vitest';
import { addressTests } from './addresses.js';
import { apiKeyTests } from './api-keys.js';
import { blockTests } from './blocks.js';
import { contractTests } from './contracts.js';
import { counterTests } from './counters.js';
import { dexTests } from './dex.js';
import { exportTests } from './exports.js';
import type { StorageFactory } from './harness.js';
import { insightTests } from './insights.js';
import { internalTransactionTests } from './internal-transactions.js';
import { labelTests } from './labels.js';
import { lifecycleTests } from './lifecycle.js';
import { logTopicTests } from './log-topics.js';
import { logTests } from './logs.js';
import { metadataTests } from './metadata.js';
import { rollbackTests } from './rollback.js';
import { tokenSearchTests } from './token-search.js';
import { tokenTransferTests } from './token-transfers.js';
import { totalsTests } from './totals.js';
import { traceTests } from './traces.js';
import { transactionTests } from './transactions.js';
import { userTests } from './users.js';
import { verificationTests } from './verification.js';
import { webhookTests } from './webhooks.js';

export { type StorageFactory, expectStoredChain, writeChain } from './harness.js';

/**
 * Registers the Storage conformance suite: vitest `describe`/`it` blocks covering every method
 * and MUST rule of {@link Storage}. Call it at the top level of a test file. Each test gets a
 * fresh storage from `factory`, calls `init()` on it and `close()` afterwards, so `factory`
 * must return an empty, independent storage on every call.
 *
 * @example
 * // as packages/testing/test/conformance.test.ts runs it on each backend
 * import { storageConformanceSuite } from '@chainlens/testing';
 * import { memoryStorage } from '@chainlens/storage-memory';
 *
 * storageConformanceSuite('memory', async () => memoryStorage());
 */
export function storageConformanceSuite(name: string, factory: StorageFactory): void {
  describe(`Storage conformance: ${name}`, () => {
    lifecycleTests(factory);
    blockTests(factory);
    transactionTests(factory);
    rollbackTests(factory);
    addressTests(factory);
    logTests(factory);
    logTopicTests(factory);
    totalsTests(factory);
    tokenTransferTests(factory);
    tokenSearchTests(factory);
    dexTests(factory);
    contractTests(factory);
    internalTransactionTests(factory);
    traceTests(factory);
    insightTests(factory);
    exportTests(factory);
    userTests(factory);
    apiKeyTests(factory);
    counterTests(factory);
    metadataTests(factory);
    labelTests(factory);
    verificationTests(factory);
    webhookTests(factory);
  });
}
