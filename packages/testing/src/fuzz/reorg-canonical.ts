import { encodeFunctionData, parseAbiItem, toEventSelector, type Hex } from 'viem';
import { expect } from 'vitest';
import { waitFor } from '../api/context.js';
import { DEMO_NFT_ABI } from './reorg-branch.js';
import { expectSupplyOfNode } from './reorg-repros.js';
import type { ReorgRun } from './reorg-run.js';

/** A block as the node gives it with its transactions. */
export interface NodeBlock {
  number: Hex;
  hash: Hex;
  transactions: { hash: Hex; from: Hex; to: Hex | null }[];
}

/**
 * What the rounds took away: the blocks the node orphaned, their transactions, those moved to the
 * winning branch, and the reorgs of the rounds that let the explorer index every doomed block first
 * (each must be announced whole: its ancestor and its blocks, newest first).
 */
export interface Orphans {
  blocks: Hex[];
  transactions: Hex[];
  moved: Hex[];
  settled: { ancestor: bigint; removed: Hex[] }[];
}

interface NodeLog {
  address: Hex;
  transactionHash: Hex;
  logIndex: Hex;
  topics: Hex[];
  data: Hex;
}

/** A receipt as the node gives it (quantities in hex) or as the API serves it (in decimal). */
interface Receipt {
  blockHash: string;
  blockNumber: string;
  transactionIndex: string;
  status: string;
  gasUsed: string;
  cumulativeGasUsed: string;
  effectiveGasPrice: string;
  contractAddress: string | null;
  logsBloom: string;
  logs: { address: string; topics: string[]; data: string; logIndex: string; blockHash: string }[];
}

/** An Etherscan hex quantity: zero is written `0x`, as Etherscan writes it. */
const etherscanQuantity = (hex: string) => BigInt(hex === '0x' ? 0 : hex);

const logFields = (log: Receipt['logs'][number]) => ({ address: log.address.toLowerCase(), topics: log.topics, data: log.data, logIndex: BigInt(log.logIndex), blockHash: log.blockHash });

/** What a receipt says, alike whether the node or the API gave it. */
function receiptFields(receipt: Receipt) {
  return {
    blockHash: receipt.blockHash,
    blockNumber: BigInt(receipt.blockNumber),
    transactionIndex: BigInt(receipt.transactionIndex),
    status: BigInt(receipt.status),
    gasUsed: BigInt(receipt.gasUsed),
    cumulativeGasUsed: BigInt(receipt.cumulativeGasUsed),
    effectiveGasPrice: BigInt(receipt.effectiveGasPrice),
    contractAddress: receipt.contractAddress?.toLowerCase() ?? null,
    logsBloom: receipt.logsBloom,
    logs: receipt.logs.map(logFields),
  };
}

const TRANSFER = toEventSelector(parseAbiItem('event Transfer(address indexed from, address indexed to, uint256 value)'));
const ZERO = `0x${'0'.repeat(40)}`;

const topicAddress = (topic: Hex | undefined) => (topic === undefined ? ZERO : `0x${topic.slice(26)}`);

/** Reads what an explorer page shows (and so whatever keeps records keeps): token records and holders, balances, lists, the newest blocks. */
export async function readEverything(run: ReorgRun): Promise<void> {
  const { token, nft } = run.demo.contracts;
  await expectSupplyOfNode(run, token.toLowerCase() as Hex);
  const head = (await run.head()).number;
  await Promise.all([
    ...[`/api/v1/token/${nft}`, `/api/v1/token/${nft}/holders`, `/api/v1/token/${token}/transfers`, `/api/v1/token/${nft}/transfers`].map((url) => run.get(url)),
    ...run.demo.accounts.flatMap((account) => [
      `/api/v1/account/balance?address=${account}`,
      `/api/v1/account/txlist?address=${account}`,
      `/api?module=account&action=txlist&address=${account}`,
      `/api?module=account&action=tokentx&address=${account}&contractaddress=${token}`,
    ].map((url) => run.get(url))),
    ...Array.from({ length: 8 }, (_, i) => run.get(`/api/v1/block/getblock?blockno=${head - BigInt(i)}`)),
  ]);
}

/**
 * Every record the API serves equals the node's at its head: blocks, transactions and receipts
 * (moved ones in their new blocks, orphaned ones gone), logs, ERC-20 and ERC-721 transfers,
 * holders with their shares and the supply, NFT owners, native balances, and account lists
 * (REST and Etherscan). Resolves the canonical blocks.
 */
export async function expectCanonical(run: ReorgRun, orphans: Orphans): Promise<NodeBlock[]> {
  const { demo } = run;
  const head = (await run.head()).number;
  const headTag = `0x${head.toString(16)}`;
  const blocks = await Promise.all(Array.from({ length: Number(head) + 1 }, (_, n) => run.rpc<NodeBlock>('eth_getBlockByNumber', [`0x${n.toString(16)}`, true])));

  for (const [n, block] of blocks.entries()) {
    const served = await run.get(`/api/v1/block/getblock?blockno=${n}`);
    expect({ hash: served.result.hash, transactions: served.result.transactions }, `block ${n}`).toEqual({ hash: block.hash, transactions: block.transactions.map((tx) => tx.hash) });
  }

  // Transactions and receipts, the moved ones in their new blocks.
  const canonical = blocks.flatMap((block) => block.transactions);
  const canonicalHashes = new Set(canonical.map((tx) => tx.hash));
  for (const tx of canonical) {
    const [served, receipt, logs, node] = await Promise.all([
      run.get<{ blockHash: string; txreceipt_status: string }>(`/api/v1/transaction/${tx.hash}`),
      run.get<Receipt>(`/api/v1/transaction/${tx.hash}/receipt`),
      run.get<Receipt['logs']>(`/api/v1/transaction/${tx.hash}/logs`),
      run.rpc<Receipt>('eth_getTransactionReceipt', [tx.hash]),
    ]);
    const expected = receiptFields(node);
    expect(receiptFields(receipt.result), `receipt of ${tx.hash}`).toEqual(expected);
    expect({ blockHash: served.result.blockHash, status: BigInt(served.result.txreceipt_status) }, tx.hash).toEqual({ blockHash: expected.blockHash, status: expected.status });
    expect(logs.result.map(logFields), `logs of ${tx.hash}`).toEqual(expected.logs);
  }
  expect(orphans.moved.length).toBeGreaterThan(0);
  for (const hash of orphans.moved) {
    expect(canonicalHashes.has(hash), `moved ${hash} is on the winning branch`).toBe(true);
    expect(orphans.blocks, `moved ${hash} left its orphaned block`).not.toContain((await run.get(`/api/v1/transaction/${hash}`)).result.blockHash);
  }
  const orphaned = orphans.transactions.filter((hash) => !canonicalHashes.has(hash));
  expect(orphaned.length).toBeGreaterThan(0);
  for (const hash of orphaned) {
    expect((await run.get(`/api/v1/transaction/${hash}`)).status, `orphaned ${hash}`).toBe(404);
    expect((await run.get(`/api/v1/transaction/${hash}/logs`)).status, `logs of orphaned ${hash}`).toBe(404);
  }
  expect((await run.explorer.storage.getChainTotals()).totalTransactions).toBe(canonical.length);

  // Transfers, logs and holders of the ERC-20 and the ERC-721: exactly the node's Transfer events and views.
  const token = demo.contracts.token.toLowerCase() as Hex;
  const nft = demo.contracts.nft.toLowerCase() as Hex;
  const logsOf = async (address: Hex) =>
    (await run.rpc<NodeLog[]>('eth_getLogs', [{ address, topics: [TRANSFER], fromBlock: '0x0', toBlock: headTag }])).map((log) => ({ ...log, key: `${log.transactionHash}:${BigInt(log.logIndex)}` }));
  const [tokenLogs, nftLogs] = await Promise.all([logsOf(token), logsOf(nft)]);
  for (const [address, logs] of [[token, tokenLogs], [nft, nftLogs]] as const) {
    const served = await pages<{ hash: string; logIndex: string }>((page) => run.get(`/api/v1/token/${address}/transfers?offset=100&page=${page}&sort=asc`), 100);
    expect(served.map((transfer) => `${transfer.hash}:${BigInt(transfer.logIndex)}`), `transfers of ${address}`).toEqual(logs.map((log) => log.key));
    const etherscanLogs = await pages<{ transactionHash: string; logIndex: string; topics: string[] }>(
      (page) => run.get(`/api?module=logs&action=getLogs&address=${address}&fromBlock=0&toBlock=${head}&topic0=${TRANSFER}&page=${page}&offset=1000`),
      1000,
    );
    expect(etherscanLogs.map((log) => `${log.transactionHash}:${etherscanQuantity(log.logIndex)}`), `Etherscan getLogs of ${address}`).toEqual(logs.map((log) => log.key));
    const parties = [...new Set(logs.flatMap((log) => [topicAddress(log.topics[1]), topicAddress(log.topics[2])]))].filter((party) => party !== ZERO);
    const balances = await Promise.all(
      parties.map(async (party) => ({ address: party, balance: BigInt(await run.rpc<Hex>('eth_call', [{ to: address, data: encodeFunctionData({ abi: DEMO_NFT_ABI, functionName: 'balanceOf', args: [party as Hex] }) }, headTag])).toString() })),
    );
    const holders = (await run.get<{ holders: { address: string; balance: string }[] }>(`/api/v1/token/${address}/holders?offset=100`)).result.holders;
    const byAddress = (a: { address: string }, b: { address: string }) => a.address.localeCompare(b.address);
    expect(holders.map((holder) => ({ address: holder.address.toLowerCase(), balance: holder.balance })).sort(byAddress), `holders of ${address}`).toEqual(
      balances.filter((holder) => holder.balance !== '0').sort(byAddress),
    );
  }
  await expectSupplyOfNode(run, token);
  await expectNftOwners(run, nft, headTag);

  // Native balances and every account's lists, in REST and Etherscan form.
  for (const account of demo.accounts) {
    const lower = account.toLowerCase();
    const balance = await run.get<{ balance: string; blockNumber: string }>(`/api/v1/account/balance?address=${account}`);
    expect(balance.result, `balance of ${account}`).toEqual(expect.objectContaining({ balance: BigInt(await run.rpc<Hex>('eth_getBalance', [account, headTag])).toString(), blockNumber: head.toString() }));
    const own = canonical.filter((tx) => tx.from.toLowerCase() === lower || tx.to?.toLowerCase() === lower).map((tx) => tx.hash).sort();
    const rest = await pages<{ hash: Hex }>((page) => run.get(`/api/v1/account/txlist?address=${account}&offset=100&page=${page}`), 100);
    expect(rest.map((tx) => tx.hash).sort(), `txlist of ${account}`).toEqual(own);
    const etherscan = await pages<{ hash: Hex }>((page) => run.get(`/api?module=account&action=txlist&address=${account}&offset=1000&page=${page}`), 1000);
    expect(etherscan.map((tx) => tx.hash).sort(), `Etherscan txlist of ${account}`).toEqual(own);
    const involves = (log: NodeLog) => topicAddress(log.topics[1]) === lower || topicAddress(log.topics[2]) === lower;
    const tokentx = await pages<{ hash: Hex; value: string }>((page) => run.get(`/api?module=account&action=tokentx&address=${account}&contractaddress=${token}&offset=1000&page=${page}`), 1000);
    expect(tokentx.map((transfer) => `${transfer.hash}:${transfer.value}`).sort(), `Etherscan tokentx of ${account}`).toEqual(
      tokenLogs.filter(involves).map((log) => `${log.transactionHash}:${BigInt(log.data)}`).sort(),
    );
    const nfttx = await pages<{ hash: Hex; tokenID: string }>((page) => run.get(`/api?module=account&action=tokennfttx&address=${account}&contractaddress=${nft}&offset=1000&page=${page}`), 1000);
    expect(nfttx.map((transfer) => `${transfer.hash}:${transfer.tokenID}`).sort(), `Etherscan tokennfttx of ${account}`).toEqual(
      nftLogs.filter(involves).map((log) => `${log.transactionHash}:${BigInt(log.topics[3]!)}`).sort(),
    );
  }
  return blocks;
}

/** Each ERC-721 id's owner, as the last of its served transfers leaves it, is the node's `ownerOf` (none for a burned id). */
async function expectNftOwners(run: ReorgRun, nft: Hex, headTag: string): Promise<void> {
  const transfers = await pages<{ to: string; tokenId: string | null }>((page) => run.get(`/api/v1/token/${nft}/transfers?offset=100&page=${page}&sort=asc`), 100);
  const owners = new Map<bigint, string>();
  for (const transfer of transfers) owners.set(BigInt(transfer.tokenId!), transfer.to.toLowerCase());
  const minted = BigInt(await run.rpc<Hex>('eth_call', [{ to: nft, data: encodeFunctionData({ abi: DEMO_NFT_ABI, functionName: 'minted' }) }, headTag]));
  expect(owners.size, 'ids with transfers').toBe(Number(minted));
  for (const [id, served] of owners) {
    const owner = await run
      .rpc<Hex>('eth_call', [{ to: nft, data: encodeFunctionData({ abi: DEMO_NFT_ABI, functionName: 'ownerOf', args: [id] }) }, headTag])
      .then((word) => topicAddress(word), () => ZERO);
    expect(served, `owner of NFT ${id}`).toBe(owner);
  }
}

/**
 * Every settled round's reorg was announced whole, and the `blocks` stream matches the hub: the
 * same reorg notices, in order; every delivered block
 * the node orphaned came again with `removed: true` after a notice that named it; no block that
 * stayed was taken back; and every canonical block since the first delivered was delivered.
 */
export async function expectReorgStream(run: ReorgRun, blocks: readonly NodeBlock[], orphans: Orphans): Promise<void> {
  const { subscriber } = run;
  const announced = run.reorgs.map((event) => ({ ancestor: event.commonAncestor.blockNumber, removed: event.removedBlockHashes }));
  for (const reorg of orphans.settled) expect(announced, `the reorg back to ${reorg.ancestor}`).toContainEqual(reorg);
  const head = blocks.at(-1)!;
  const data = () => subscriber.messages.filter((message) => message.channel === 'blocks' && message.event === undefined);
  await waitFor(() => data().some((message) => message.data.blockHash === head.hash) || null, 'the head over WebSocket');
  const notices = () => subscriber.messages.filter((message) => message.event === 'reorg');
  await waitFor(() => notices().length >= run.reorgs.length || null, `${run.reorgs.length} reorg notices over WebSocket`);
  expect(notices().map((notice) => notice.data.removedBlockHashes)).toEqual(run.reorgs.map((event) => event.removedBlockHashes));

  const canonical = new Set(blocks.map((block) => block.hash));
  const indexOf = (message: object) => subscriber.messages.indexOf(message as never);
  const delivered = data().filter((message) => message.removed !== true);
  const takenBack = new Map(data().filter((message) => message.removed === true).map((message) => [message.data.blockHash as Hex, message]));
  for (const message of delivered) {
    const hash = message.data.blockHash as Hex;
    if (canonical.has(hash)) continue;
    const removed = takenBack.get(hash);
    expect(removed, `orphaned block ${hash} delivered at ${message.blockNumber} comes again removed`).toBeDefined();
    const notice = notices().find((one) => one.data.removedBlockHashes.includes(hash));
    expect(notice, `a reorg notice names ${hash}`).toBeDefined();
    expect(indexOf(message) < indexOf(notice!) && indexOf(notice!) < indexOf(removed!), `${hash}: delivered, announced, then taken back`).toBe(true);
  }
  for (const hash of takenBack.keys()) expect(canonical.has(hash), `canonical block ${hash} taken back`).toBe(false);
  const first = Number(BigInt(delivered[0]!.blockNumber));
  const deliveredHashes = new Set(delivered.map((message) => message.data.blockHash));
  for (const block of blocks.slice(first)) expect(deliveredHashes.has(block.hash), `canonical block ${BigInt(block.number)} delivered`).toBe(true);
}

/** Every row of a paged list, page by page until a short one. */
async function pages<T>(read: (page: number) => Promise<{ result: T[] }>, size: number): Promise<T[]> {
  const rows: T[] = [];
  for (let page = 1; ; page++) {
    const { result } = await read(page);
    rows.push(...result);
    if (result.length < size) return rows;
  }
}
