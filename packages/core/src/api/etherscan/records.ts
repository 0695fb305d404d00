/**
 * Etherscan's record shapes, mapped from the services' records (never read separately): the
 * field names, order and string forms Etherscan clients parse.
 */
import { formatUsd } from '../../prices/usd.js';
import type { AccountTokenTransferRecord, ContractCreationRecord, ContractRecord, InternalTransactionRecord, LogSearchRecord, TokenRecord, TransactionRecord } from '../../services/index.js';
import type { NativePrice } from '../../features/prices/index.js';
import type { StoredVerifiedContract } from '../../storage/index.js';

/** The selector a transaction called: the input's first four bytes, `0x` for none. */
function methodIdOf(input: string): string {
  return input.length >= 10 ? input.slice(0, 10) : '0x';
}

/** The transaction fields Etherscan repeats on each token transfer. */
function carrier(tx: TransactionRecord) {
  return {
    nonce: tx.nonce,
    blockHash: tx.blockHash,
    transactionIndex: tx.transactionIndex,
    gas: tx.gas,
    gasPrice: tx.gasPrice,
    gasUsed: tx.gasUsed,
    cumulativeGasUsed: tx.cumulativeGasUsed,
    input: tx.input,
    methodId: methodIdOf(tx.input),
    // Function names need the called contract's verified ABI; unknown here, as Etherscan leaves it.
    functionName: '',
    confirmations: tx.confirmations,
  };
}

/** `account/txlist`: a normal transaction. */
export function normalTransaction(tx: TransactionRecord) {
  return {
    blockNumber: tx.blockNumber,
    timeStamp: tx.timestamp,
    hash: tx.hash,
    nonce: tx.nonce,
    blockHash: tx.blockHash,
    transactionIndex: tx.transactionIndex,
    from: tx.from,
    to: tx.to,
    value: tx.value,
    gas: tx.gas,
    gasPrice: tx.gasPrice,
    isError: tx.isError,
    txreceipt_status: tx.txreceipt_status,
    input: tx.input,
    contractAddress: tx.contractAddress,
    cumulativeGasUsed: tx.cumulativeGasUsed,
    gasUsed: tx.gasUsed,
    confirmations: tx.confirmations,
    methodId: methodIdOf(tx.input),
    functionName: '',
  };
}

/** `account/txlistinternal&txhash=`: an internal transaction of the asked transaction. */
export function internalTransaction(internal: InternalTransactionRecord) {
  return {
    blockNumber: internal.blockNumber,
    timeStamp: internal.timestamp,
    from: internal.from,
    to: internal.to,
    value: internal.value,
    contractAddress: internal.contractAddress,
    input: internal.input,
    type: internal.type,
    gas: internal.gas,
    gasUsed: internal.gasUsed,
    isError: internal.isError,
    errCode: internal.errCode,
  };
}

/** `account/txlistinternal&address=` or by block range: an internal transaction with its transaction's hash and trace id. */
export function listedInternalTransaction(internal: InternalTransactionRecord) {
  return {
    blockNumber: internal.blockNumber,
    timeStamp: internal.timestamp,
    hash: internal.hash,
    from: internal.from,
    to: internal.to,
    value: internal.value,
    contractAddress: internal.contractAddress,
    input: internal.input,
    type: internal.type,
    gas: internal.gas,
    gasUsed: internal.gasUsed,
    traceId: internal.traceId,
    isError: internal.isError,
    errCode: internal.errCode,
  };
}

/** `account/tokentx`: an ERC-20 transfer. */
export const erc20Transfer = (transfer: AccountTokenTransferRecord) => fungibleOrNftTransfer(transfer, { value: transfer.value });

/** `account/tokennfttx`: an ERC-721 transfer. */
export const erc721Transfer = (transfer: AccountTokenTransferRecord) => fungibleOrNftTransfer(transfer, { tokenID: transfer.tokenId ?? '' });

/** The fields `tokentx` and `tokennfttx` share, in Etherscan's order, around what tells them apart (`amount`). */
function fungibleOrNftTransfer(transfer: AccountTokenTransferRecord, amount: { value: string } | { tokenID: string }) {
  const { nonce, blockHash, transactionIndex, gas, gasPrice, gasUsed, cumulativeGasUsed, input, methodId, functionName, confirmations } = carrier(transfer.transaction);
  return {
    blockNumber: transfer.blockNumber,
    timeStamp: transfer.timestamp,
    hash: transfer.hash,
    nonce,
    blockHash,
    from: transfer.from,
    contractAddress: transfer.token,
    to: transfer.to,
    ...amount,
    ...etherscanTokenIdentity(transfer),
    transactionIndex,
    gas,
    gasPrice,
    gasUsed,
    cumulativeGasUsed,
    input,
    methodId,
    functionName,
    confirmations,
  };
}

/** `account/token1155tx`: one ERC-1155 transfer (each entry of a batch on its own). */
export function erc1155Transfer(transfer: AccountTokenTransferRecord) {
  const { nonce, blockHash, transactionIndex, gas, gasPrice, gasUsed, cumulativeGasUsed, input, methodId, functionName, confirmations } = carrier(transfer.transaction);
  return {
    blockNumber: transfer.blockNumber,
    timeStamp: transfer.timestamp,
    hash: transfer.hash,
    nonce,
    blockHash,
    transactionIndex,
    gas,
    gasPrice,
    gasUsed,
    cumulativeGasUsed,
    input,
    methodId,
    functionName,
    contractAddress: transfer.token,
    from: transfer.from,
    to: transfer.to,
    tokenID: transfer.tokenId ?? '',
    tokenValue: transfer.value,
    tokenName: etherscanTokenIdentity(transfer).tokenName,
    tokenSymbol: etherscanTokenIdentity(transfer).tokenSymbol,
    confirmations,
  };
}

/**
 * Etherscan writes what it does not know of a token as `''`, and an NFT's decimals as `'0'`: its
 * clients parse strings, where the REST records say `null`.
 */
function etherscanTokenIdentity(transfer: AccountTokenTransferRecord) {
  return {
    tokenName: transfer.tokenName ?? '',
    tokenSymbol: transfer.tokenSymbol ?? '',
    tokenDecimal: transfer.tokenDecimal ?? (transfer.standard === 'ERC-20' ? '' : '0'),
  };
}

/** A quantity as Etherscan's getLogs writes it: hex, zero as `0x` (no digits), as Etherscan does. */
function hex(decimal: string): string {
  const value = BigInt(decimal);
  return value === 0n ? '0x' : `0x${value.toString(16)}`;
}

/** `logs/getLogs`: a log with its block time and its transaction's gas, quantities in hex. */
export function eventLog(log: LogSearchRecord) {
  return {
    address: log.address,
    topics: log.topics,
    data: log.data,
    blockNumber: hex(log.blockNumber),
    blockHash: log.blockHash,
    timeStamp: hex(log.timestamp),
    gasPrice: hex(log.gasPrice),
    gasUsed: hex(log.gasUsed),
    logIndex: hex(log.logIndex),
    transactionHash: log.transactionHash,
    transactionIndex: hex(log.transactionIndex),
  };
}

/**
 * `stats/ethprice`: the coin's USD price and the chain time it stands at. The price source knows
 * no BTC rate, so `ethbtc` and `ethbtc_timestamp` are left out rather than made up.
 */
export function etherPrice(price: NativePrice) {
  return { ethusd: formatUsd(price.usd), ethusd_timestamp: price.timestamp.toString() };
}

/** `contract/getsourcecode` of a contract whose source is not verified: Etherscan's empty record. */
export const UNVERIFIED_SOURCE = Object.freeze({
  SourceCode: '',
  ABI: 'Contract source code not verified',
  ContractName: '',
  CompilerVersion: '',
  OptimizationUsed: '',
  Runs: '',
  ConstructorArguments: '',
  EVMVersion: 'Default',
  Library: '',
  LicenseType: 'Unknown',
  Proxy: '0',
  Implementation: '',
  SwarmSource: '',
});

/**
 * The sources as Etherscan shows them: one file's text, or for several the standard-JSON input
 * wrapped in double braces (`{{…}}`), which Etherscan clients unwrap.
 */
function sourceCodeOf(verified: StoredVerifiedContract): string {
  const files = Object.entries(verified.sources);
  if (files.length === 1) return files[0]![1];
  const input = { language: 'Solidity', sources: Object.fromEntries(files.map(([path, content]) => [path, { content }])), settings: verified.compilerSettings };
  return `{${JSON.stringify(input)}}`;
}

/** Linked libraries as Etherscan lists them: `Name:0xaddress`, separated by `;`. */
function librariesOf(settings: Record<string, unknown>): string {
  const libraries = (settings['libraries'] ?? {}) as Record<string, Record<string, string>>;
  return Object.values(libraries)
    .flatMap((byName) => Object.entries(byName).map(([name, address]) => `${name}:${address}`))
    .join(';');
}

/**
 * `contract/getsourcecode` of a verified contract. `Proxy` and `Implementation` are what proxy
 * detection finds at the indexed head (`contract` is `null` where no code is left to look at).
 */
export function sourceCode(verified: StoredVerifiedContract, contract: ContractRecord | null) {
  const optimizer = (verified.compilerSettings['optimizer'] ?? {}) as { enabled?: boolean; runs?: number };
  return {
    SourceCode: sourceCodeOf(verified),
    ABI: JSON.stringify(verified.abi),
    ContractName: verified.name,
    CompilerVersion: `v${verified.compilerVersion}`,
    OptimizationUsed: optimizer.enabled === true ? '1' : '0',
    Runs: String(optimizer.runs ?? 200),
    ConstructorArguments: verified.constructorArguments.slice(2),
    EVMVersion: typeof verified.compilerSettings['evmVersion'] === 'string' ? verified.compilerSettings['evmVersion'] : 'Default',
    Library: librariesOf(verified.compilerSettings),
    LicenseType: verified.license ?? 'None',
    Proxy: contract?.isProxy ? '1' : '0',
    Implementation: contract?.implementation ?? '',
    SwarmSource: '',
  };
}

/** `contract/getcontractcreation`: one contract's creation, with the init code it ran. */
export function contractCreation(creation: ContractCreationRecord, creationBytecode: string) {
  return {
    contractAddress: creation.address,
    contractCreator: creation.creator,
    txHash: creation.transactionHash,
    blockNumber: creation.blockNumber,
    timestamp: creation.timestamp,
    contractFactory: creation.factory ?? '',
    creationBytecode,
  };
}

/** Etherscan's name of a standard: `ERC20`, `ERC721`, `ERC1155`. */
function tokenType(standard: TokenRecord['standard']): string {
  return standard.replace('-', '');
}

/**
 * `token/tokeninfo`: the token record in Etherscan's fields and order. What neither the contract
 * nor its metadata profile tells (email, blog, other social links, whitepaper) is `''`, as
 * Etherscan leaves what it does not know.
 */
export function tokenInfo(token: TokenRecord) {
  return {
    contractAddress: token.address,
    tokenName: token.name ?? '',
    symbol: token.symbol ?? '',
    divisor: token.decimals ?? (token.standard === 'ERC-20' ? '' : '0'),
    tokenType: tokenType(token.standard),
    totalSupply: token.totalSupply ?? '',
    blueCheckmark: token.verified ? 'true' : 'false',
    description: token.metadata.description ?? '',
    website: token.website ?? '',
    email: '',
    blog: '',
    reddit: '',
    slack: '',
    facebook: '',
    twitter: token.social.twitter ?? '',
    bitcointalk: '',
    github: '',
    telegram: token.social.telegram ?? '',
    wechat: '',
    linkedin: '',
    discord: '',
    whitepaper: '',
    tokenPriceUSD: token.priceUSD ?? '',
  };
}
