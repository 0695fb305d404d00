import type { GraphqlContribution } from '../../modules/graphql-contribution.js';
import { chainResolvers } from '../resolvers/index.js';

/** The chain module's fields: blocks, transactions (their token transfers, decoded input and calls, balance changes, envelope), accounts (their tokens, NFTs, token transfers, delegation), tokens (their NFT inventory), contracts, search, charts, the chain's head and statistics, and the subscriptions to indexed blocks. */
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
  balance: String! @cost(weight: 20)
  "Newest first."
  transactions(first: Int, after: String): TransactionConnection!
  "Needs credentials (a JWT or an API key), as GET /account/summary does."
  summary: AccountSummary!
  "Tokens it holds (a positive balance from indexed transfers), by token address, as GET /api/v1/account/tokens answers them."
  tokens(first: Int, after: String): TokenHoldingConnection!
  "The NFTs it holds (ERC-721 tokens, ERC-1155 ids), by token then id, as GET /api/v1/account/nfts answers them."
  nfts(first: Int, after: String): NftConnection! @cost(weight: 20)
  "Token transfers of every standard from or to it, newest first, as GET /api/v1/account/token-transfers answers them."
  tokenTransfers(first: Int, after: String): AccountTokenTransferConnection!
  "The contract it delegates its code to (EIP-7702) at the newest indexed block, as GET /api/v1/account/delegation answers it."
  delegation: Delegation! @cost(weight: 20)
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
  "The token transfers it made, in log order, as GET /api/v1/transaction/:hash/token-transfers answers them."
  tokenTransfers: [AccountTokenTransfer!]!
  "Its input decoded as a function call, as GET /api/v1/transaction/:hash/input answers it."
  decodedInput: DecodedInput! @cost(weight: 100)
  "Its call tree, every call decoded where an ABI is known, as GET /api/v1/transaction/:hash/calls answers it; null, with a TRACING_UNAVAILABLE error, where the node does not trace."
  calls: CallFrame @cost(weight: 100)
  "What it moved per address, as GET /api/v1/transaction/:hash/balance-changes answers it."
  balanceChanges: BalanceChanges! @cost(weight: 100)
  "Its type and what the type adds (EIP-7702 authorizations, EIP-4844 blobs), as GET /api/v1/transaction/:hash/envelope answers it."
  envelope: TransactionEnvelope! @cost(weight: 20)
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
  "An NFT collection's tokens and who holds them, by id, as GET /api/v1/token/:address/inventory answers them; null for an ERC-20 token."
  inventory(first: Int, after: String): NftConnection @cost(weight: 20)
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

"REST's token holding: a token an address holds."
type TokenHolding {
  token: Address!
  name: String
  symbol: String
  "Null where unknown (an NFT has none)."
  decimals: String
  standard: String!
  "Base units; an ERC-1155 balance sums every id."
  balance: String!
}

type TokenHoldingConnection {
  edges: [TokenHoldingEdge!]!
  pageInfo: PageInfo!
}

type TokenHoldingEdge {
  node: TokenHolding!
  cursor: String!
}

"REST's NFT: an ERC-721 token or an ERC-1155 id, and who holds it."
type Nft {
  token: Address!
  tokenName: String
  tokenSymbol: String
  "ERC-721 or ERC-1155."
  standard: String!
  tokenId: String!
  owner: Address!
  "The owner's public label; null without one."
  ownerLabel: String
  "Units held: 1 for an ERC-721 token."
  balance: String!
  "tokenURI(id) (ERC-721) or uri(id) with {id} filled in (ERC-1155) at the newest indexed block; null where the contract has none."
  tokenUri: String
  "What a data:application/json token URI carries; null for any other URI (the server fetches none)."
  metadata: NftMetadata
}

type NftMetadata {
  name: String
  description: String
  image: String
}

type NftConnection {
  edges: [NftEdge!]!
  pageInfo: PageInfo!
}

type NftEdge {
  node: Nft!
  cursor: String!
}

"REST's token transfer of an account or a transaction: with its token, standard and transaction."
type AccountTokenTransfer {
  blockNumber: String!
  timestamp: String!
  transactionHash: Hash!
  logIndex: String!
  from: Address!
  fromLabel: String
  to: Address!
  toLabel: String
  "Base units."
  value: String!
  "Null for ERC-20."
  tokenId: String
  "The token contract."
  token: Address!
  "ERC-20, ERC-721 or ERC-1155."
  standard: String!
  tokenName: String
  tokenSymbol: String
  tokenDecimal: String
  transaction: Transaction!
}

type AccountTokenTransferConnection {
  edges: [AccountTokenTransferEdge!]!
  pageInfo: PageInfo!
}

type AccountTokenTransferEdge {
  node: AccountTokenTransfer!
  cursor: String!
}

"REST's delegation (EIP-7702)."
type Delegation {
  address: Address!
  "The contract whose code the account runs; null when it delegates to none."
  delegatedTo: Address
  "The delegation target's public label; null without one."
  delegatedToLabel: String
  "The indexed head the code was read at; null before anything is indexed."
  blockNumber: String
}

"REST's decoded input: a transaction's call data as a function call."
type DecodedInput {
  "The input's first four bytes; null for a plain transfer or a creation."
  selector: String
  "The callee's verified name; null where not verified."
  contractName: String
  "Null where no known ABI describes the input."
  functionName: String
  signature: String
  "verified (a verified contract's ABI) or common (ChainLens's table of common functions)."
  source: String
  parameters: [DecodedParameter!]
}

"One decoded argument, result or error parameter."
type DecodedParameter {
  "The ABI's name; arg0, arg1… where it gives none."
  name: String!
  "ABI type, e.g. address, uint256[], tuple."
  type: String!
  "Addresses and bytes as lowercase hex, numbers as decimal, tuples and arrays as JSON."
  value: String!
}

"Call data decoded as a function call."
type DecodedCall {
  functionName: String!
  signature: String!
  source: String!
  parameters: [DecodedParameter!]!
}

"A custom error decoded by a verified ABI."
type DecodedError {
  errorName: String!
  signature: String!
  parameters: [DecodedParameter!]!
}

"REST's call frame: one call of a transaction's call tree, its calls nested."
type CallFrame {
  "CALL, STATICCALL, DELEGATECALL, CALLCODE, CREATE, CREATE2 or SELFDESTRUCT."
  type: String!
  from: Address!
  fromLabel: String
  to: Address
  toLabel: String
  "Wei."
  value: String!
  gas: String!
  gasUsed: String!
  input: String!
  output: String!
  "Why the frame failed, as the node says; null when it did not."
  error: String
  contractName: String
  "The input decoded; null for a creation, a plain transfer or an unknown selector."
  call: DecodedCall
  "The return data decoded; null when the call failed or is not decoded."
  result: [DecodedParameter!]
  "Why the frame failed, readable; null when it did not."
  revertReason: String
  "The custom error it reverted with, where a verified ABI declares it."
  revertError: DecodedError
  calls: [CallFrame!]!
}

"REST's balance changes: what a transaction moved per address."
type BalanceChanges {
  hash: Hash!
  "Calls' values, the fee and the miner's priority fee; null where the node does not trace."
  ether: [EtherBalanceChange!]
  "From the transaction's transfer events (the zero address left out)."
  tokens: [TokenBalanceChange!]!
}

type EtherBalanceChange {
  address: Address!
  label: String
  "Signed Wei."
  change: String!
}

type TokenBalanceChange {
  address: Address!
  label: String
  token: Address!
  standard: String!
  tokenName: String
  tokenSymbol: String
  tokenDecimal: String
  "Null for ERC-20."
  tokenId: String
  "Signed, base units."
  change: String!
}

"REST's transaction envelope: a transaction's type and what the type adds."
type TransactionEnvelope {
  hash: Hash!
  "EIP-2718 type: 0 legacy, 1 access list, 2 EIP-1559, 3 blob, 4 set code."
  type: Int!
  "Null for a type ChainLens does not know."
  typeName: String
  "Type 4 only."
  authorizationList: [Authorization!]
  "Type 3 only."
  blobVersionedHashes: [Hash!]
  blobCount: Int
  blobGasUsed: String
  "Wei per blob gas."
  blobGasPrice: String
  maxFeePerBlobGas: String
}

"An EIP-7702 authorization."
type Authorization {
  "0: any chain."
  chainId: String!
  "The delegation target."
  address: Address!
  addressLabel: String
  nonce: String!
  "The account that signed it, recovered; null when the signature does not recover."
  authority: Address
  authorityLabel: String
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
