import { chainMigration } from './001-chain.js';
import { accountsMigration } from './002-accounts.js';
import { countersMigration } from './003-counters.js';
import { tokenTransfersMigration } from './004-token-transfers.js';
import { metadataMigration } from './005-metadata.js';
import { dexMigration } from './006-dex.js';
import { tokenInterfacesMigration } from './007-token-interfaces.js';
import { contractsMigration } from './008-contracts.js';
import { blockTransactionHashesMigration } from './009-block-transaction-hashes.js';
import { verificationMigration } from './010-verification.js';
import { internalTransactionsMigration } from './011-internal-transactions.js';
import { addressTransactionOrdinalsMigration } from './012-address-transaction-ordinals.js';
import { transferPartyStatisticsMigration } from './013-transfer-party-statistics.js';
import { traceCursorMigration } from './014-trace-cursor.js';
import { tokenSearchMigration } from './015-token-search.js';
import { chartRollupsMigration } from './016-chart-rollups.js';
import { approvalsMigration } from './017-approvals.js';
import { labelsMigration } from './018-labels.js';
import { logTopicsMigration } from './019-log-topics.js';
import { blocksByMinerMigration } from './020-blocks-by-miner.js';
import { webhooksMigration } from './021-webhooks.js';
import { tokenTransferOrdinalsMigration } from './022-token-transfer-ordinals.js';
import { webhookOutboxOrderMigration } from './023-webhook-outbox-order.js';
import { logAddressOrdinalsMigration } from './024-log-address-ordinals.js';
import type { Migration } from './migration.js';

export type { Migration } from './migration.js';

/** Every migration, in version order. Append new ones; never edit a released one. */
export const migrations: readonly Migration[] = [chainMigration, accountsMigration, countersMigration, tokenTransfersMigration, metadataMigration, dexMigration, tokenInterfacesMigration, contractsMigration, blockTransactionHashesMigration, verificationMigration, internalTransactionsMigration, addressTransactionOrdinalsMigration, transferPartyStatisticsMigration, traceCursorMigration, tokenSearchMigration, chartRollupsMigration, approvalsMigration, labelsMigration, logTopicsMigration, blocksByMinerMigration, webhooksMigration, tokenTransferOrdinalsMigration, webhookOutboxOrderMigration, logAddressOrdinalsMigration];
