import type { ResolvedConfig } from '../config.js';
import type { IndexedHead } from '../events/index.js';
import { chainFields } from '../graphql/fields/chain.js';
import type { ExplorerModule } from '../modules/index.js';
import {
  AccountService,
  BalanceChangeService,
  BlockService,
  ChartService,
  ContractService,
  DelegationService,
  ExportService,
  GasOracleService,
  ListRows,
  LogService,
  NetworkStatsService,
  NftInventoryService,
  SearchService,
  SubmissionService,
  TokenService,
  TraceService,
  TransactionDecodingService,
  TransactionEnvelopeService,
  TransactionService,
  type ChainRecordCache,
  type DomainServices,
  type LabelLookup,
  type TokenPrices,
} from '../services/index.js';
import type { TokenMetadataReader } from '../tokens/token-metadata.js';

type ChainServices =
  | 'accounts'
  | 'balanceChanges'
  | 'blocks'
  | 'charts'
  | 'contracts'
  | 'decoding'
  | 'delegations'
  | 'envelopes'
  | 'exports'
  | 'gasOracle'
  | 'logs'
  | 'networkStats'
  | 'nfts'
  | 'search'
  | 'submission'
  | 'tokens'
  | 'traces'
  | 'transactions';

/** What the chain module reads from the modules before it. */
export interface ChainModuleOptions {
  config: Pick<ResolvedConfig, 'startBlock' | 'traces' | 'exports' | 'stats' | 'reads'>;
  head: IndexedHead;
  records: ChainRecordCache;
  tokenReader: TokenMetadataReader;
  /** The labels and prices the chain's records show, through their ports, and the pending pool. */
  services: { labels: LabelLookup; prices: TokenPrices } & Pick<DomainServices, 'pending'>;
}

/**
 * Reading the chain: blocks, transactions, accounts, tokens, logs, contracts, call trees and
 * what is derived from them (decoded calls, balance changes, charts, exports, search).
 */
/** The roles the chain-reading services read. */
type ChainReads = 'BlockReader' | 'TransactionReader' | 'LogReader' | 'JoinedPageReader' | 'TokenReader' | 'ChartReader' | 'ExportReader' | 'ChainCursors' | 'VerificationStorage' | 'MetadataStorage';

export const chainModule: ExplorerModule<ChainModuleOptions, { services: Pick<DomainServices, ChainServices> }, ChainReads> = {
  name: 'chain',
  graphql: [chainFields],
  register(app, { config, head, records, tokenReader, services: { labels, prices, pending } }) {
    const { storage, chain } = app;
    const rows = config.reads.listRowCacheBytes > 0 ? new ListRows(app.hub, config.reads.listRowCacheBytes) : null;
    const tokens = new TokenService(storage, head, tokenReader, prices, labels, config.startBlock, rows);
    const blocks = new BlockService(storage, head, records, labels, config.startBlock);
    const contracts = new ContractService(storage, head, chain, labels, undefined, rows);
    const delegations = new DelegationService(chain, head, labels);
    const transactions = new TransactionService(storage, head, chain, records, labels, delegations, config.startBlock);
    const traces = new TraceService(storage, chain, labels, config.traces);
    const envelopes = new TransactionEnvelopeService(storage, chain, labels);
    return {
      services: {
        accounts: new AccountService(storage, head, chain, records, labels),
        balanceChanges: new BalanceChangeService(storage, traces, tokens, envelopes, labels),
        blocks,
        charts: new ChartService(storage, head, prices),
        contracts,
        decoding: new TransactionDecodingService(storage, traces, delegations),
        delegations,
        envelopes,
        exports: new ExportService(storage, labels, tokens, config.exports),
        gasOracle: new GasOracleService(chain),
        logs: new LogService(storage, head, rows),
        networkStats: new NetworkStatsService(storage, chain, config.stats.windowBlocks),
        nfts: new NftInventoryService(storage, chain, head, tokens, labels),
        search: new SearchService(blocks, transactions, tokens, contracts, labels),
        submission: new SubmissionService(chain, pending),
        tokens,
        traces,
        transactions,
      },
    };
  },
};
