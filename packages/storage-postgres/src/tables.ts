import { escapeIdentifier } from 'pg';

/** The schema-qualified name of every table, ready to put in SQL. */
export interface Tables {
  blocks: string;
  transactions: string;
  logs: string;
  addressTransactions: string;
  addressStats: string;
  tokenTransfers: string;
  tokens: string;
  tokenHolders: string;
  dexPairs: string;
  pairSyncs: string;
  pairSwaps: string;
  contractCreations: string;
  internalTransactions: string;
  metadataProfiles: string;
  chartRollups: string;
  tokenRollups: string;
  tokenApprovals: string;
  addressLabels: string;
  labelState: string;
  privateLabels: string;
  verifiedContracts: string;
  verificationJobs: string;
  chainState: string;
  users: string;
  apiKeys: string;
  counters: string;
  webhooks: string;
}

/**
 * Qualified names rather than a per-connection `search_path`: statements then mean the same on
 * any connection, including ones a pooler shares.
 */
export function qualifiedTables(schema: string): Tables {
  const name = (table: string) => `${escapeIdentifier(schema)}.${table}`;
  return {
    blocks: name('blocks'),
    transactions: name('transactions'),
    logs: name('logs'),
    addressTransactions: name('address_transactions'),
    addressStats: name('address_stats'),
    tokenTransfers: name('token_transfers'),
    tokens: name('tokens'),
    tokenHolders: name('token_holders'),
    dexPairs: name('dex_pairs'),
    pairSyncs: name('pair_syncs'),
    pairSwaps: name('pair_swaps'),
    contractCreations: name('contract_creations'),
    internalTransactions: name('internal_transactions'),
    metadataProfiles: name('metadata_profiles'),
    chartRollups: name('chart_rollups'),
    tokenRollups: name('token_rollups'),
    tokenApprovals: name('token_approvals'),
    addressLabels: name('address_labels'),
    labelState: name('label_state'),
    privateLabels: name('private_labels'),
    verifiedContracts: name('verified_contracts'),
    verificationJobs: name('verification_jobs'),
    chainState: name('chain_state'),
    users: name('users'),
    apiKeys: name('api_keys'),
    counters: name('counters'),
    webhooks: name('webhooks'),
  };
}
