import type { ExportReader, Hex, KeysetQuery, StoredInternalTransaction, StoredLog, StoredTokenTransfer, StoredTransaction } from '../storage/index.js';
import { csvRow } from './csv.js';
import { labelOf, type LabelLookup } from './address-labels.js';
import type { TokenService } from './token-service.js';

/** What an export lists: an address's transactions, internal transactions, token transfers or emitted logs. */
export type ExportKind = 'transactions' | 'internal-transactions' | 'token-transfers' | 'logs';

/** Whose records and which blocks an export covers (inclusive range). */
export interface ExportQuery {
  address: Hex;
  startBlock?: bigint;
  endBlock?: bigint;
}

/** Options of {@link ExportService}. */
export interface ExportServiceOptions {
  /** Most rows one export writes. */
  maxRows: number;
  /** Rows read from storage at a time. */
  pageRows: number;
}

/** How one kind is read (keyset pages after the last record) and written (header and rows). */
interface ExportShape<T extends { blockNumber: bigint }> {
  header: readonly string[];
  read(storage: ExportReader, query: KeysetQuery<T>): Promise<T[]>;
  /** The CSV rows of one page, with what they need (labels, token names) read once for the page. */
  rows(page: readonly T[], context: PageContext): Promise<string>;
}

interface PageContext {
  labels: LabelLookup;
  tokens: TokenService;
}

const ENCODER = new TextEncoder();

/** Unix seconds as `YYYY-MM-DD HH:MM:SS` (UTC), as Etherscan's exports write them. */
function dateTime(timestamp: bigint): string {
  return new Date(Number(timestamp) * 1000).toISOString().slice(0, 19).replace('T', ' ');
}

const transactions: ExportShape<StoredTransaction> = {
  header: ['Transaction Hash', 'Blockno', 'UnixTimestamp', 'DateTime (UTC)', 'From', 'From Label', 'To', 'To Label', 'ContractAddress', 'Value (Wei)', 'TxnFee (Wei)', 'Gas Price (Wei)', 'Gas Used', 'Nonce', 'Status', 'Method'],
  read: (storage, query) => storage.listAddressTransactionsAfter(query),
  async rows(page, { labels }) {
    const names = await labels.labelsOf(page.flatMap((tx) => [tx.from, tx.to, tx.contractAddress]));
    return page
      .map((tx) =>
        csvRow([
          tx.hash, tx.blockNumber.toString(), tx.timestamp.toString(), dateTime(tx.timestamp),
          tx.from, labelOf(names, tx.from), tx.to, labelOf(names, tx.to ?? tx.contractAddress), tx.contractAddress,
          tx.value.toString(), (tx.gasUsed * tx.effectiveGasPrice).toString(), tx.effectiveGasPrice.toString(), tx.gasUsed.toString(),
          tx.nonce.toString(), tx.status === 1 ? '1' : '0', tx.input.length >= 10 ? tx.input.slice(0, 10) : null,
        ]),
      )
      .join('');
  },
};

const internalTransactions: ExportShape<StoredInternalTransaction> = {
  header: ['Transaction Hash', 'Blockno', 'UnixTimestamp', 'DateTime (UTC)', 'Trace Id', 'Type', 'From', 'From Label', 'To', 'To Label', 'Value (Wei)', 'Gas', 'Gas Used', 'Error'],
  read: (storage, query) => storage.listAddressInternalTransactionsAfter(query),
  async rows(page, { labels }) {
    const names = await labels.labelsOf(page.flatMap((internal) => [internal.from, internal.to]));
    return page
      .map((internal) =>
        csvRow([
          internal.transactionHash, internal.blockNumber.toString(), internal.timestamp.toString(), dateTime(internal.timestamp),
          internal.traceId, internal.type, internal.from, labelOf(names, internal.from), internal.to, labelOf(names, internal.to),
          internal.value.toString(), internal.gas.toString(), internal.gasUsed.toString(), internal.error,
        ]),
      )
      .join('');
  },
};

const tokenTransfers: ExportShape<StoredTokenTransfer> = {
  header: ['Transaction Hash', 'Blockno', 'UnixTimestamp', 'DateTime (UTC)', 'Log Index', 'Batch Index', 'Token Contract', 'Token Name', 'Token Symbol', 'Token Decimals', 'Standard', 'From', 'From Label', 'To', 'To Label', 'Value', 'Token Id'],
  read: (storage, query) => storage.listAddressTokenTransfersAfter(query),
  async rows(page, { labels, tokens }) {
    const [names, identities] = await Promise.all([
      labels.labelsOf(page.flatMap((transfer) => [transfer.from, transfer.to])),
      tokens.identities(page.map((transfer) => transfer.token)),
    ]);
    return page
      .map((transfer) => {
        const token = identities.get(transfer.token)!;
        return csvRow([
          transfer.transactionHash, transfer.blockNumber.toString(), transfer.timestamp.toString(), dateTime(transfer.timestamp),
          String(transfer.logIndex), String(transfer.batchIndex), transfer.token, token.name, token.symbol, token.decimals, transfer.standard,
          transfer.from, labelOf(names, transfer.from), transfer.to, labelOf(names, transfer.to), transfer.value.toString(), transfer.tokenId?.toString() ?? null,
        ]);
      })
      .join('');
  },
};

const logs: ExportShape<StoredLog> = {
  header: ['Transaction Hash', 'Blockno', 'Log Index', 'Address', 'Topic0', 'Topic1', 'Topic2', 'Topic3', 'Data'],
  read: (storage, query) => storage.listAddressLogsAfter(query),
  async rows(page) {
    return page
      .map((log) =>
        csvRow([log.transactionHash, log.blockNumber.toString(), String(log.logIndex), log.address, log.topics[0] ?? null, log.topics[1] ?? null, log.topics[2] ?? null, log.topics[3] ?? null, log.data]),
      )
      .join('');
  },
};

/** Every kind's shape. */
const SHAPES: { [K in ExportKind]: ExportShape<never> } = {
  transactions: transactions as ExportShape<never>,
  'internal-transactions': internalTransactions as ExportShape<never>,
  'token-transfers': tokenTransfers as ExportShape<never>,
  logs: logs as ExportShape<never>,
};

/**
 * CSV exports of an address's records (Etherscan's "Download CSV Export"), streamed: rows are
 * read from storage a page at a time through keyset pages (each from where the last ended) and
 * written as they come, so an export holds one page in memory however long it is, and stops
 * reading when the client goes away. Labels and token names are read once per page.
 */
export class ExportService {
  constructor(
    private readonly storage: ExportReader,
    private readonly labels: LabelLookup,
    private readonly tokens: TokenService,
    private readonly options: ExportServiceOptions,
  ) {}

  /**
   * The export of `kind` as chunks of UTF-8 CSV: a header row, then at most `maxRows` rows in
   * chain order. Its first page is read before this resolves, so a storage that fails fails the
   * request rather than a response already begun.
   */
  async export(kind: ExportKind, query: ExportQuery): Promise<AsyncIterable<Uint8Array>> {
    const shape = SHAPES[kind] as unknown as ExportShape<PositionRecord>;
    const { maxRows, pageRows } = this.options;
    const read = (after: PositionRecord | undefined, written: number) =>
      shape.read(this.storage, { ...query, limit: Math.min(pageRows, maxRows - written), ...(after !== undefined && { after }) });
    const first = await read(undefined, 0);
    const context: PageContext = { labels: this.labels, tokens: this.tokens };
    return (async function* pages() {
      yield ENCODER.encode(csvRow(shape.header));
      let page = first;
      let written = 0;
      while (page.length > 0) {
        yield ENCODER.encode(await shape.rows(page, context));
        written += page.length;
        if (page.length < pageRows || written >= maxRows) return;
        page = await read(page.at(-1), written);
      }
    })();
  }
}

/** A record whose position the next keyset page starts after. */
type PositionRecord = { blockNumber: bigint };
