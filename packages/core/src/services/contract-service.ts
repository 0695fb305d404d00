import type { ChainClient } from '../chain/chain-client.js';
import { detectProxy, type ProxyKind } from '../contracts/proxy-detection.js';
import { ContractNotFoundError } from '../errors/index.js';
import { decodeLog, type EventResolver, resolveStandardEvent } from '../abi/decode-log.js';
import type { AddressLogsQuery, Hex, Storage } from '../storage/index.js';
import { formatTransaction, type TransactionRecord } from './format.js';
import type { IndexedHead } from './indexed-head.js';

/**
 * The spec's Contract record, plus the proxy's kind and implementation. Source fields (`name`,
 * `compiler`, `optimization`, `runs`, `verifiedAt`, `license`) are `null` and `verified` is
 * `false` until source verification exists. `creator`, `creationTx` and `creationBlock` are `null`
 * for a contract whose creation was not indexed (created before `startBlock`, in genesis, or
 * inside a transaction on a node that does not trace).
 */
export interface ContractRecord {
  address: string;
  name: string | null;
  compiler: string | null;
  optimization: boolean | null;
  runs: number | null;
  verified: boolean;
  verifiedAt: string | null;
  license: string | null;
  creator: string | null;
  creationTx: string | null;
  creationBlock: string | null;
  /** Wei at the newest indexed block. */
  balance: string;
  /** Indexed transactions sent to, from or creating it. */
  txCount: number;
  /** It has indexed token transfers. */
  isToken: boolean;
  isProxy: boolean;
  proxyType: ProxyKind | null;
  implementation: string | null;
}

/** The spec's Contract event: the log, and its event decoded where a known ABI describes it. */
export interface ContractEventRecord {
  address: string;
  topics: string[];
  data: string;
  blockNumber: string;
  transactionHash: string;
  logIndex: string;
  /** `null` when no known ABI describes the event (then `decoded` is empty). */
  eventName: string | null;
  /** Parameter name → value as a string. */
  decoded: Record<string, string>;
}

/** Contracts: creation from storage, code, balance and proxy slots from the chain at the indexed head. */
export class ContractService {
  constructor(
    private readonly storage: Storage,
    private readonly head: IndexedHead,
    private readonly chain: ChainClient,
    private readonly resolveEvent: EventResolver = resolveStandardEvent,
  ) {}

  /** A contract's logs, decoded where a known ABI describes them; 404 for an address that is no contract. */
  async events(query: AddressLogsQuery): Promise<ContractEventRecord[]> {
    const logs = await this.storage.listAddressLogs(query);
    if (logs.length === 0) await this.mustExist(query.address);
    return logs.map((log) => {
      const { eventName, parameters } = decodeLog(log, this.resolveEvent);
      return {
        address: log.address,
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

  /** The transactions between `user` and the contract, either way, newest first; 404 for an address that is no contract. */
  async interactions(query: { contract: Hex; user: Hex; page: number; offset: number }): Promise<TransactionRecord[]> {
    const [transactions, cursor] = await Promise.all([
      this.storage.listTransactionsBetween({ address: query.user, counterparty: query.contract, page: query.page, offset: query.offset, sort: 'desc' }),
      this.head.current(),
    ]);
    if (transactions.length === 0) await this.mustExist(query.contract);
    return transactions.map((tx) => formatTransaction(tx, cursor?.number ?? null));
  }

  /** Throws {@link ContractNotFoundError} unless a creation is indexed or the node has code at the address. */
  private async mustExist(address: Hex): Promise<void> {
    if (await this.storage.getContractCreation(address)) return;
    const code = await this.chain.request<string>('eth_getCode', [address, await this.head.blockTag()]);
    if (code === '0x') throw new ContractNotFoundError();
  }

  async contract(address: Hex): Promise<ContractRecord> {
    const tag = await this.head.blockTag();
    const [code, creation, balance, activity, token] = await Promise.all([
      this.chain.request<string>('eth_getCode', [address, tag]),
      this.storage.getContractCreation(address),
      this.chain.request<string>('eth_getBalance', [address, tag]),
      this.storage.getAddressActivity(address),
      this.storage.getToken(address),
    ]);
    // A self-destructed contract has no code left but keeps its history.
    if (code === '0x' && creation === null) throw new ContractNotFoundError();
    const proxy = code === '0x' ? null : await detectProxy(this.chain, address, code, tag);
    return {
      address,
      name: null,
      compiler: null,
      optimization: null,
      runs: null,
      verified: false,
      verifiedAt: null,
      license: null,
      creator: creation?.creator ?? null,
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
