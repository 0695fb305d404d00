/**
 * The API's records, as far as the page reads them (the README's "What is served" tables and the
 * OpenAPI document describe them whole). Quantities are decimal strings.
 */

export interface Block {
  blockNumber: string;
  hash: string;
  parentHash: string;
  timestamp: string;
  miner: string;
  gasUsed: string;
  gasLimit: string;
  baseFeePerGas: string | null;
  size: string;
  stateRoot: string;
  transactionsRoot: string;
  receiptsRoot: string;
  extraData: string;
  transactionCount: number;
  transactions: string[];
}

/** A `blocks` channel message's data. */
export interface BlockEvent {
  blockNumber: string;
  blockHash: string;
  timestamp: string;
  transactionCount: number;
  gasUsed: string;
  miner: string;
}

export interface Transaction {
  hash: string;
  blockNumber: string;
  blockHash: string;
  timestamp: string;
  from: string;
  to: string;
  value: string;
  gas: string;
  gasPrice: string;
  gasUsed: string;
  nonce: string;
  input: string;
  transactionIndex: string;
  confirmations: string;
  isError: string;
  txreceipt_status: string;
  contractAddress: string;
}

export interface TransactionInfo extends Transaction {
  success: boolean;
  revertReason: string | null;
}

export interface DecodedLog {
  eventName: string | null;
  eventSignature: string | null;
  parameters: Record<string, string>;
  contractAddress: string;
  contractName: string | null;
}

export interface TokenTransfer {
  blockNumber: string;
  timestamp: string;
  hash: string;
  from: string;
  to: string;
  value: string;
  tokenName: string | null;
  tokenSymbol: string | null;
  tokenDecimal: string | null;
  logIndex: string;
  tokenId: string | null;
}

/** A transfer listed beside others of several tokens: which token, of which standard. */
export interface AccountTokenTransfer extends TokenTransfer {
  token: string;
  standard: string;
}

/** An internal transaction, as the Etherscan-compatible `txlistinternal` answers it. */
export interface InternalTransaction {
  from: string;
  to: string;
  value: string;
  type: string;
  contractAddress: string;
  isError: string;
  errCode: string;
}

export interface Balance {
  address: string;
  balance: string;
  blockNumber: string;
}

export interface TokenHolding {
  token: string;
  name: string | null;
  symbol: string | null;
  decimals: string | null;
  standard: string;
  balance: string;
}

export interface Contract {
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
  balance: string;
  txCount: number;
  isToken: boolean;
  isProxy: boolean;
  proxyType: string | null;
  implementation: string | null;
}

/** One entry of Etherscan's `getsourcecode`. */
export interface SourceCode {
  SourceCode: string;
  ContractName: string;
  CompilerVersion: string;
}

export interface AbiEntry {
  type: string;
  name?: string;
  inputs?: { name: string; type: string }[];
  outputs?: { name: string; type: string }[];
  stateMutability?: string;
}

export interface Token {
  address: string;
  name: string | null;
  symbol: string | null;
  decimals: string | null;
  totalSupply: string | null;
  holders: number;
  transfers: number;
  priceUSD: string | null;
  marketCap: string | null;
  volume24h: string | null;
  standard: string;
}

export interface TokenHolders {
  total: number;
  page: number;
  holders: { address: string; balance: string; percentage: string | null; firstSeen: string; lastActivity: string }[];
}

export interface NetworkStats {
  blockHeight: number;
  blockTime: number;
  tps: number;
  gasPrice: string | null;
  totalAccounts: number;
  totalTransactions: number;
  totalContracts: number;
}

export interface Validator {
  address: string;
  votingPower: string | null;
  isActive: boolean;
  uptime: number | null;
  totalBlocks: number;
  missedBlocks: number | null;
}

export interface ValidatorSet {
  totalValidators: number;
  activeValidators: number;
  epoch: number | null;
  validators: Validator[];
}

export interface ConsensusInfo {
  consensusAlgorithm: string | null;
  blockTime: number;
  epoch: number | null;
  currentBlock: number;
  currentValidator: string | null;
  nextValidator: string | null;
  totalStaked: string | null;
}

export interface Finality {
  blockNumber: string;
  isFinalized: boolean;
  confirmations: number;
  requiredConfirmations: number | null;
}

/** One match of `GET /api/v1/search` (the search contract). */
export type SearchMatch =
  | { type: 'block'; blockNumber: string; hash: string }
  | { type: 'transaction'; hash: string; blockNumber: string }
  | { type: 'contract'; address: string; name: string | null }
  | { type: 'address'; address: string }
  | { type: 'token'; address: string; name: string | null; symbol: string | null; standard: string };
