import type { GraphqlContribution } from '../../modules/graphql-contribution.js';
import { chainResolvers } from '../resolvers/index.js';

/** The chain module's fields: blocks, transactions, accounts, tokens, contracts, search, charts, the chain's head and statistics, and the subscriptions to indexed blocks. */
export const chainFields: GraphqlContribution = {
  typeDefs: /* GraphQL */ `
extend type Query {
  "The chain as a whole: its head, validators, consensus and statistics."
  blockchain: Blockchain!
  "A block by number or hash (give one); without either, the newest indexed block. Null when unknown."
  block(number: BlockNumber, hash: Hash): Block
  "A mined transaction; null when unknown."
  transaction(hash: Hash!): Transaction
  "Any address: its balance and transactions."
  account(address: Address!): Account!
  "A token contract; null when no transfer of it was indexed."
  token(address: Address!): Token
  "Tokens, most held first (or by market cap or volume)."
  tokens(first: Int, after: String, sort: TokenSort = HOLDERS, verified: Boolean): TokenListConnection!
  "A contract; null when no code was found at the address."
  contract(address: Address!): Contract
  "What q names, best first, as GET /api/v1/search answers: a block number, a block or transaction hash, an address, or the start of a token's name or symbol or of an address's public label (2 characters or more, ignoring case). q: 1 to 200 characters once trimmed; first: 1 to 50."
  search(q: String!, first: Int = 10): [SearchMatch!]!
  "The chart series there are (REST's GET /stats/charts)."
  chartSeries: [ChartSeries!]!
  "A series over time, as REST's GET /stats/charts/:name answers it; from and to are Unix seconds (decimal strings). Null for an unknown series."
  chart(name: String!, resolution: ChartResolution = DAY, from: String, to: String, token: Address): Chart
}

enum ChartResolution {
  DAY
  HOUR
}

type ChartSeries {
  name: String!
  description: String!
  "count, gas, wei or usd."
  unit: String!
  "none (the chain's), optional (every token's, or one's) or required (one token's)."
  token: String!
}

type Chart {
  name: String!
  resolution: ChartResolution!
  token: Address
  from: String!
  to: String!
  "One per bucket in which at least one block was indexed, oldest first."
  points: [ChartPoint!]!
}

type ChartPoint {
  "Unix seconds the bucket starts at."
  timestamp: String!
  "A decimal string; null where the bucket has none."
  value: String
}

extend type Subscription {
  "Every indexed block."
  blocks: Block!
  "Every indexed transaction."
  transactions: Transaction!
  "Indexed transactions from, to or creating the address."
  addressTransactions(address: Address!): Transaction!
  "Indexed transfers of the token."
  tokenTransfers(token: Address!): TokenTransfer!
}

type Blockchain {
  latestBlock: Block
  networkStats: NetworkStats!
}

type Block {
  number: String!
  hash: Hash!
  parentHash: Hash!
  timestamp: String!
  miner: Address!
  "The miner's public label; null without one."
  minerLabel: String
  gasUsed: String!
  gasLimit: String!
  baseFeePerGas: String
  difficulty: String!
  size: String!
  stateRoot: Hash!
  transactionsRoot: Hash!
  receiptsRoot: Hash!
  extraData: String!
  transactionCount: Int!
  transactions(first: Int, after: String): TransactionConnection!
}

type NetworkStats {
  blockHeight: Int!
  blockTime: Float!
  tps: Float!
  peakTps: Float!
  gasPrice: String
  totalTransactions: Int!
  totalAccounts: Int!
  totalContracts: Int!
  activeNodes: Int
  networkLoad: Float!
}

type Account {
  address: Address!
  "The address's public label; null without one."
  label: String
  "Wei at the newest indexed block."
  balance: String!
  "Newest first."
  transactions(first: Int, after: String): TransactionConnection!
  "Needs credentials (a JWT or an API key), as GET /account/summary does."
  summary: AccountSummary!
}

type AccountSummary {
  transactionCount: Int!
  tokenTransferCount: Int!
  firstSeen: String
  lastSeen: String
  isContract: Boolean!
}

type Transaction {
  hash: Hash!
  blockNumber: String!
  timestamp: String!
  from: Address!
  "The sender's public label; null without one."
  fromLabel: String
  "Null for a contract creation."
  to: Address
  "The recipient's (or created contract's) public label; null without one."
  toLabel: String
  value: String!
  gas: String!
  gasPrice: String!
  gasUsed: String!
  nonce: String!
  input: String!
  transactionIndex: String!
  confirmations: String!
  "'1' success, '0' failure (REST's txreceipt_status)."
  status: String!
  contractAddress: Address
  block: Block!
  logs: [Log!]!
}

type TransactionConnection {
  edges: [TransactionEdge!]!
  pageInfo: PageInfo!
}

type TransactionEdge {
  node: Transaction!
  cursor: String!
}

type Log {
  address: Address!
  "The emitting contract's public label; null without one."
  addressLabel: String
  topics: [Hash!]!
  data: String!
  logIndex: String!
}

enum TokenSort {
  HOLDERS
  MARKET_CAP
  VOLUME
}

type Token {
  address: Address!
  standard: String!
  name: String
  symbol: String
  decimals: String
  totalSupply: String
  priceUSD: String
  marketCap: String
  volume24h: String
  verified: Boolean!
  holders: TokenHolders!
  transfers(first: Int, after: String): TokenTransferConnection!
}

type TokenHolders {
  total: Int!
  top10: [TokenHolder!]!
}

type TokenHolder {
  address: Address!
  "The holder's public label; null without one."
  label: String
  balance: String!
  "Percent of the total supply (0-100, decimal); null without a total supply."
  percentage: String
  account: Account!
}

type TokenTransfer {
  blockNumber: String!
  timestamp: String!
  transactionHash: Hash!
  logIndex: String!
  from: Address!
  fromLabel: String
  to: Address!
  toLabel: String
  value: String!
  tokenId: String
  token: Token
  transaction: Transaction
}

type TokenTransferConnection {
  edges: [TokenTransferEdge!]!
  pageInfo: PageInfo!
}

type TokenTransferEdge {
  node: TokenTransfer!
  cursor: String!
}

type TokenListConnection {
  edges: [TokenListEdge!]!
  pageInfo: PageInfo!
}

type TokenListEdge {
  node: TokenListItem!
  cursor: String!
}

"REST's token list item."
type TokenListItem {
  address: Address!
  name: String
  symbol: String
  decimals: String
  priceUSD: String
  marketCap: String
  volume24h: String
  holders: Int!
  verified: Boolean!
  logo: String
  token: Token
}

"One answer of search; type says which, as REST's type field does."
union SearchMatch = BlockMatch | TransactionMatch | ContractMatch | AddressMatch | TokenMatch

"q is an indexed block's number or hash."
type BlockMatch {
  type: String!
  blockNumber: String!
  hash: Hash!
}

"q is an indexed transaction's hash."
type TransactionMatch {
  type: String!
  hash: Hash!
  blockNumber: String!
}

"q is a contract's address (code at the indexed head, or an indexed creation), or the start of its public label."
type ContractMatch {
  type: String!
  address: Address!
  "From its verified source, else its token metadata."
  name: String
  "Its public label; null without one."
  label: String
}

"q is any other well-formed address, or the start of its public label."
type AddressMatch {
  type: String!
  address: Address!
  "Its public label; null without one."
  label: String
}

"q is a token's address, or the start of its name or symbol."
type TokenMatch {
  type: String!
  address: Address!
  name: String
  symbol: String
  standard: String!
}

type Contract {
  address: Address!
  name: String
  verified: Boolean!
  "The contract's public label; null without one."
  label: String
  creator: Address
  creatorLabel: String
  creationTransaction: Transaction
  creationBlock: String
  balance: String!
  isToken: Boolean!
  isProxy: Boolean!
  token: Token
}
`,
  resolvers: chainResolvers,
};
