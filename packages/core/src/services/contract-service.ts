import type { ChainClient } from '../chain/chain-client.js';
import { detectProxy, type ProxyKind } from '../proxies/proxy-detection.js';
import { NodeRpcError } from '../chain/node-rpc-error.js';
import { ContractNotFoundError, ContractNotVerifiedError, UpstreamUnavailableError } from '../errors/index.js';
import { decodeLog, type EventResolver, resolveStandardEvent } from '../abi/decode-log.js';
import { verifiedEventResolver } from '../abi/verified-events.js';
import type { AddressLogsQuery, Hex, LogReader, StoredLog, StoredVerifiedContract, TokenReader, TransactionReader, VerificationStorage } from '../storage/index.js';
import { formatTransaction, transactionAddresses, type TransactionRecord } from './format.js';
import { labelOf, type LabelLookup } from './address-labels.js';
import { addressLogsList, type ListRows } from './list-rows.js';
import type { JsonArrayText } from '../records/json-array-text.js';
import { createHash } from 'node:crypto';
import type { IndexedHead } from '../events/indexed-head.js';
import type { z } from 'zod';
import type { contractEventRecordSchema, contractRecordSchema } from '../records/record-schemas.js';
import type { contractCreationRecordSchema } from '../records/etherscan-record-schemas.js';

/**
 * The spec's Contract record, plus the proxy's kind and implementation. Source fields (`name`,
 * `compiler`, `optimization`, `runs`, `verifiedAt`, `license`) come from the contract's own
 * verified source: `null`, and `verified` `false`, until it is verified (a proxy shows its own,
 * not its implementation's). `creator`, `creationTx` and `creationBlock` are `null`
 * for a contract whose creation was not indexed (created before `startBlock`, in genesis, or
 * inside a transaction on a node that does not trace).
 */
export type ContractRecord = z.infer<typeof contractRecordSchema>;

/** Where and by whom a contract was created, as Etherscan's `getcontractcreation` tells it. */
export type ContractCreationRecord = z.infer<typeof contractCreationRecordSchema>;

/** The spec's Contract event: the log, and its event decoded where a known ABI describes it. */
export type ContractEventRecord = z.infer<typeof contractEventRecordSchema>;

/**
 * Contracts: creation and verified source from storage, code, balance and proxy slots from the
 * chain at the indexed head.
 */
export class ContractService {
  /** `resolveEvent` decodes what a contract's verified ABI does not describe (default: the standard ABIs). */
  constructor(
    private readonly storage: TransactionReader & LogReader & TokenReader & VerificationStorage,
    private readonly head: IndexedHead,
    private readonly chain: ChainClient,
    private readonly labels: LabelLookup,
    private readonly resolveEvent: EventResolver = resolveStandardEvent,
    /** Kept rows of event pages; without them every page is read from storage. */
    private readonly rows: ListRows | null = null,
  ) {}

  /** The contract's verified source record, or `null` when it is not verified. */
  verified(address: Hex): Promise<StoredVerifiedContract | null> {
    return this.storage.getVerifiedContract(address);
  }

  /**
   * The contract's own ABI as the compiler produced it (a proxy's, not its implementation's).
   * Throws {@link ContractNotVerifiedError} when its source is not verified.
   */
  async abi(address: Hex): Promise<Record<string, unknown>[]> {
    const verified = await this.storage.getVerifiedContract(address);
    if (!verified) throw new ContractNotVerifiedError();
    // What verification stored: solc's JSON ABI, whose every entry is an object.
    return verified.abi as Record<string, unknown>[];
  }

  /**
   * A contract's logs, decoded with its verified ABI, else the standard ABIs; 404 for an address
   * that is no contract.
   */
  async events(query: AddressLogsQuery): Promise<ContractEventRecord[]> {
    const [logs, verified, labels] = await Promise.all([
      this.storage.listAddressLogs(query),
      this.storage.getVerifiedContracts([query.address]),
      this.labels.labelsOf([query.address]),
    ]);
    if (logs.length === 0 && !(await this.hasLogs(query.address))) await this.mustExist(query.address);
    return eventRecords(logs, verified, this.resolveEvent, labelOf(labels, query.address));
  }

  /**
   * {@link events} as the REST page serves it: an unfiltered page assembled from kept rows (see
   * {@link ListRows}) where it can be, else read as {@link events} reads it; the same JSON
   * either way.
   */
  async eventsPage(query: AddressLogsQuery): Promise<ContractEventRecord[] | JsonArrayText<ContractEventRecord>> {
    const rows = this.rows;
    if (rows === null || query.topic0 !== undefined || query.startBlock !== undefined || query.endBlock !== undefined) return this.events(query);
    const [cursor, version] = await Promise.all([this.head.current(), this.labels.labelsVersion()]);
    const page = await rows.page<StoredLog, EventsContext, ContractEventRecord>(
      {
        list: addressLogsList(query.address),
        shape: 'events',
        version: String(version),
        // A row shows the contract's label and is decoded with its verified ABI, if any.
        context: async () => {
          const [verified, labels] = await Promise.all([this.storage.getVerifiedContracts([query.address]), this.labels.labelsOf([query.address])]);
          const addressLabel = labelOf(labels, query.address);
          const key = createHash('sha256')
            .update(JSON.stringify([addressLabel, verified.map(({ name, abi }) => [name, abi])]))
            .digest('base64');
          return { value: { verified, addressLabel }, key };
        },
        tip: () => this.storage.getAddressLogTip(query.address),
        range: (range) => this.storage.listAddressLogRange(query.address, range),
        write: async (logs, { verified, addressLabel }) => eventRecords(logs, verified, this.resolveEvent, addressLabel).map((record) => JSON.stringify(record)),
      },
      cursor,
      query,
    );
    return page ?? this.events(query);
  }

  /** The transactions between `user` and the contract, either way, newest first; 404 for an address that is no contract. */
  async interactions(query: { contract: Hex; user: Hex; page: number; offset: number }): Promise<TransactionRecord[]> {
    const [transactions, cursor] = await Promise.all([
      this.storage.listTransactionsBetween({ address: query.user, counterparty: query.contract, page: query.page, offset: query.offset, sort: 'desc' }),
      this.head.current(),
    ]);
    if (transactions.length === 0) await this.mustExist(query.contract);
    const labels = await this.labels.labelsOf(transactions.flatMap(transactionAddresses));
    return transactions.map((tx) => formatTransaction(tx, cursor?.number ?? null, labels));
  }

  /**
   * Whether storage holds any log of `address`: only code emits logs, so such an address is a
   * contract and an empty page of it (past its last log, or filtered) is simply empty, answered
   * from the index without asking the node.
   */
  private async hasLogs(address: Hex): Promise<boolean> {
    return (await this.storage.listAddressLogs({ address, page: 1, offset: 1, sort: 'desc' })).length > 0;
  }

  /** Throws {@link ContractNotFoundError} unless {@link isContract}. */
  private async mustExist(address: Hex): Promise<void> {
    if (!(await this.isContract(address))) throw new ContractNotFoundError();
  }

  /** The indexed creation of the contract at `address`, or `null` where none is indexed. */
  async creation(address: Hex): Promise<ContractCreationRecord | null> {
    const creation = await this.storage.getContractCreation(address);
    if (!creation) return null;
    const tx = await this.storage.getTransaction(creation.transactionHash);
    // A creation rolled away between the two reads is no creation any more.
    if (!tx) return null;
    const own = creation.traceIndex === 0;
    return {
      address,
      creator: tx.from,
      factory: own ? null : creation.creator,
      transactionHash: tx.hash,
      blockNumber: tx.blockNumber.toString(),
      timestamp: tx.timestamp.toString(),
      initCode: own ? tx.input : null,
    };
  }

  /**
   * Whether `address` is a contract: its creation is indexed, or the node has code there at the
   * indexed head. A node that refuses the read (one behind the indexed head has no state there)
   * cannot say: that is {@link UpstreamUnavailableError}, never an internal error.
   */
  async isContract(address: Hex): Promise<boolean> {
    if (await this.storage.getContractCreation(address)) return true;
    const tag = await this.head.blockTag();
    try {
      return (await this.chain.request<string>('eth_getCode', [address, tag])) !== '0x';
    } catch (error) {
      throw error instanceof NodeRpcError ? new UpstreamUnavailableError(error) : error;
    }
  }

  async contract(address: Hex): Promise<ContractRecord> {
    const tag = await this.head.blockTag();
    const [code, creation, balance, activity, token, verified] = await Promise.all([
      this.chain.request<string>('eth_getCode', [address, tag]),
      this.storage.getContractCreation(address),
      this.chain.request<string>('eth_getBalance', [address, tag]),
      this.storage.getAddressActivity(address),
      this.storage.getToken(address),
      this.storage.getVerifiedContract(address),
    ]);
    // A self-destructed contract has no code left but keeps its history.
    if (code === '0x' && creation === null) throw new ContractNotFoundError();
    const [proxy, labels] = await Promise.all([
      code === '0x' ? null : detectProxy(this.chain, address, code, tag),
      this.labels.labelsOf([address, creation?.creator ?? null]),
    ]);
    return {
      address,
      ...sourceFields(verified),
      creator: creation?.creator ?? null,
      label: labelOf(labels, address),
      creatorLabel: labelOf(labels, creation?.creator ?? null),
      creationTx: creation?.transactionHash ?? null,
      creationBlock: creation?.blockNumber.toString() ?? null,
      balance: BigInt(balance).toString(),
      txCount: activity.transactionCount,
      isToken: token !== null,
      isProxy: proxy !== null,
      proxyType: proxy?.kind ?? null,
      implementation: proxy?.implementation ?? null,
    };
  }
}

/** solc's optimizer runs when the settings name none. */
const DEFAULT_RUNS = 200;

/** What a contract's event rows show besides its logs: its verification (how they decode) and its label. */
interface EventsContext {
  verified: StoredVerifiedContract[];
  addressLabel: string | null;
}

type SourceFields = Pick<ContractRecord, 'name' | 'compiler' | 'optimization' | 'runs' | 'verified' | 'verifiedAt' | 'license'>;

/** The Contract record's fields that come from the verified source, if any. */
function sourceFields(verified: StoredVerifiedContract | null): SourceFields {
  if (!verified) return { name: null, compiler: null, optimization: null, runs: null, verified: false, verifiedAt: null, license: null };
  const optimizer = verified.compilerSettings['optimizer'] as { enabled?: unknown; runs?: unknown } | undefined;
  return {
    name: verified.name,
    compiler: `v${verified.compilerVersion}`,
    optimization: optimizer?.enabled === true,
    runs: typeof optimizer?.runs === 'number' ? optimizer.runs : DEFAULT_RUNS,
    verified: true,
    verifiedAt: verified.verifiedAt,
    license: verified.license,
  };
}

/** Logs of one contract as its events page shows them, decoded with its verified ABI (if any), else the standard ABIs. */
function eventRecords(logs: readonly StoredLog[], verified: readonly StoredVerifiedContract[], fallback: EventResolver, addressLabel: string | null): ContractEventRecord[] {
  const resolve = verifiedEventResolver(verified, fallback);
  return logs.map((log) => {
    const { eventName, parameters } = decodeLog(log, resolve);
    return {
      address: log.address,
      addressLabel,
      topics: log.topics,
      data: log.data,
      blockNumber: log.blockNumber.toString(),
      transactionHash: log.transactionHash,
      logIndex: log.logIndex.toString(),
      eventName,
      decoded: parameters,
    };
  });
}
