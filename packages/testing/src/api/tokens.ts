import { formatUnits, parseAbi, parseEther, parseUnits, type Abi, type Address } from 'viem';
import { expect, it } from 'vitest';
import { DEMO_SOURCES, type TestChain } from '@chainlens/devchain';
import type { PriceSource } from '@chainlens/core';
import { chainTransfers, type ChainTransfer } from './chain-transfers.js';
import { call, errorEnvelope, get, indexedToHead, signUp, tokenTransferAtHead, waitFor, type ApiContext } from './context.js';
import { deployContract, ownChains } from './own-chains.js';

const ZERO: Address = `0x${'00'.repeat(20)}`;
const VIEWS = parseAbi([
  'function name() view returns (string)',
  'function symbol() view returns (string)',
  'function decimals() view returns (uint8)',
  'function totalSupply() view returns (uint256)',
  'function balanceOf(address) view returns (uint256)',
]);
const MULTI_VIEWS = parseAbi(['function balanceOf(address, uint256) view returns (uint256)']);
const PAIR_VIEWS = parseAbi(['function getReserves() view returns (uint112, uint112, uint32)']);
const E18 = 10n ** 18n;
const DAY = 86_400n;
const usd = (value: bigint) => formatUnits(value, 18);

/**
 * Crowds for paging tests, in few transactions: `Spreader` gives `count` fresh addresses some of
 * the caller's ERC-20 (real `transferFrom`s, i + 1 base units to the i-th), and `TokenFactory`
 * creates `count` tokens whose creation mints one unit to the caller.
 */
const CROWDS = /* solidity */ `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

interface IERC20 {
    function transferFrom(address from, address to, uint256 value) external returns (bool);
}

contract Spreader {
    function spread(IERC20 token, uint256 count) external {
        for (uint256 i = 0; i < count; i++) {
            address holder = address(uint160(uint256(keccak256(abi.encode(i)))));
            require(token.transferFrom(msg.sender, holder, i + 1), "Spreader: transfer failed");
        }
    }
}

contract OneTransferToken {
    event Transfer(address indexed from, address indexed to, uint256 value);

    constructor(address to) {
        emit Transfer(address(0), to, 1);
    }
}

contract TokenFactory {
    function create(uint256 count) external {
        for (uint256 i = 0; i < count; i++) new OneTransferToken(msg.sender);
    }
}
`;

/** `/token/:address`, `/holders` and `/transfers` against what the chain itself says. */
export function tokenTests(ctx: () => ApiContext): void {
  const { ownChain, ownExplorer } = ownChains(ctx);

  /** Sends a call from dev account 0 and checks it succeeded. */
  async function send(chain: TestChain, address: Address, signature: string, args: unknown[]): Promise<void> {
    const abi = parseAbi([signature]) as Abi;
    const functionName = signature.slice('function '.length, signature.indexOf('('));
    const hash = await chain.walletClient.writeContract({ address, abi, functionName, args });
    expect((await chain.publicClient.waitForTransactionReceipt({ hash, pollingInterval: 10 })).status, functionName).toBe('success');
  }

  /** The indexed head and every token movement up to it, as viem decodes the node's logs. */
  async function chainState(): Promise<{ head: bigint; transfers: ChainTransfer[] }> {
    const head = await indexedToHead(ctx());
    const logs = await ctx().chain.publicClient.getLogs({ fromBlock: 0n, toBlock: head });
    return { head, transfers: logs.flatMap(chainTransfers) };
  }

  /** What `holder` holds of `token` on the chain: `balanceOf`, summed over the ids moved for ERC-1155. */
  async function chainBalance(token: Address, holder: Address, ids: bigint[] | null, blockNumber: bigint): Promise<bigint> {
    const client = ctx().chain.publicClient;
    if (ids === null) return client.readContract({ address: token, abi: VIEWS, functionName: 'balanceOf', args: [holder], blockNumber });
    let sum = 0n;
    for (const id of ids) sum += await client.readContract({ address: token, abi: MULTI_VIEWS, functionName: 'balanceOf', args: [holder, id], blockNumber });
    return sum;
  }

  /**
   * DEMO's price at block `blockNumber` from its DEMO/DUSD pool's reserves (both 18 decimals,
   * DUSD configured at 1 USD), in USD with 18 decimals, truncated as the API does.
   */
  async function demoPrice(blockNumber: bigint): Promise<{ price: bigint; dusdReserve: bigint }> {
    const { token, quoteToken, dexPair } = ctx().demo.contracts;
    const [r0, r1] = await ctx().chain.publicClient.readContract({ address: dexPair, abi: PAIR_VIEWS, functionName: 'getReserves', blockNumber });
    const [demo, dusd] = BigInt(token) < BigInt(quoteToken) ? [r0, r1] : [r1, r0];
    return { price: (dusd * E18) / demo, dusdReserve: dusd };
  }

  it('every holder of the ERC-20, ERC-721 and ERC-1155 demo tokens has the balance the chain reports', async () => {
    const { head, transfers } = await chainState();
    const { token, nft, multiToken } = ctx().demo.contracts;
    for (const [address, multi] of [[token, false], [nft, false], [multiToken, true]] as const) {
      const lower = address.toLowerCase() as Address;
      const moves = transfers.filter((t) => t.token === lower);
      // The demo mints and burns every standard (and batch-moves the ERC-1155): all must agree.
      expect([moves.some((t) => t.from === ZERO), moves.some((t) => t.to === ZERO)], `${lower} mints and burns`).toEqual([true, true]);
      const ids = multi ? [...new Set(moves.map((t) => t.id!))] : null;
      const parties = [...new Set(moves.flatMap((t) => [t.from, t.to]))].filter((party) => party !== ZERO);
      const expected: { address: string; balance: string }[] = [];
      for (const party of parties) {
        const balance = await chainBalance(address, party, ids, head);
        if (balance > 0n) expected.push({ address: party, balance: balance.toString() });
      }
      expected.sort((a, b) => (BigInt(a.balance) === BigInt(b.balance) ? (a.address < b.address ? -1 : 1) : BigInt(a.balance) > BigInt(b.balance) ? -1 : 1));
      const answer = await get(ctx(), `/api/v1/token/${address}/holders?offset=100`);
      expect(answer.status, lower).toBe(200);
      expect(answer.body.result.total, lower).toBe(expected.length);
      expect(answer.body.result.page).toBe(1);
      expect(answer.body.result.holders.map((h: { address: string; balance: string }) => ({ address: h.address, balance: h.balance })), lower).toEqual(expected);
      expect(expected.length).toBeGreaterThan(1);
    }
  });

  it('GET /token/:address reads metadata and supply from the chain, counts holders and transfers, and prices from the pool', async () => {
    const { head, transfers } = await chainState();
    const address = ctx().demo.contracts.token;
    const client = ctx().chain.publicClient;
    const read = <F extends 'name' | 'symbol' | 'decimals' | 'totalSupply'>(functionName: F) =>
      client.readContract({ address, abi: VIEWS, functionName, blockNumber: head } as never) as Promise<unknown>;
    const holders = (await get(ctx(), `/api/v1/token/${address}/holders?offset=100`)).body.result.total;
    const { price } = await demoPrice(head);
    const { status, body } = await get(ctx(), `/api/v1/token/${address}`);
    expect(status).toBe(200);
    expect(body.result).toEqual({
      address: address.toLowerCase(),
      standard: 'ERC-20',
      name: await read('name'),
      symbol: await read('symbol'),
      decimals: String(await read('decimals')),
      totalSupply: String(await read('totalSupply')),
      interfaces: [],
      holders,
      transfers: transfers.filter((t) => t.token === address.toLowerCase()).length,
      priceUSD: usd(price),
      marketCap: usd((price * ((await read('totalSupply')) as bigint)) / E18),
      // The demo's one swap paid 1 000 DUSD in.
      volume24h: '1000',
      verified: false,
      website: null,
      social: { twitter: null, telegram: null },
      metadata: { logo: null, description: null, riskScore: null, trustLevel: null },
    });
    const nft = (await get(ctx(), `/api/v1/token/${ctx().demo.contracts.nft}`)).body.result;
    expect(nft).toMatchObject({ standard: 'ERC-721', decimals: null, interfaces: ['ERC-165', 'ERC-721'], priceUSD: null, marketCap: null, volume24h: null });
    const multi = (await get(ctx(), `/api/v1/token/${ctx().demo.contracts.multiToken}`)).body.result;
    expect(multi).toMatchObject({ standard: 'ERC-1155', name: null, symbol: null, totalSupply: null });
  });

  it('a token’s name, symbol and decimals read the same in its record, the token list and its transfers: null where unknown', async () => {
    await indexedToHead(ctx());
    const { token, nft, multiToken } = ctx().demo.contracts;
    const list = (await get(ctx(), '/api/v1/token/list?limit=1000')).body.result as { address: string; name: string | null; symbol: string | null; decimals: string | null }[];
    type Transfer = { hash: string; to: string; token?: string; tokenName: string | null; tokenSymbol: string | null; tokenDecimal: string | null };
    for (const address of [token, nft, multiToken]) {
      const lower = address.toLowerCase();
      const { name, symbol, decimals } = (await get(ctx(), `/api/v1/token/${address}`)).body.result;
      expect(list.find((item) => item.address === lower)).toMatchObject({ name, symbol, decimals });
      const transfers = (await get(ctx(), `/api/v1/token/${address}/transfers?offset=5`)).body.result as Transfer[];
      expect(transfers.length).toBeGreaterThan(0);
      // The same transfers as an account's and as a transaction's carry the same three fields.
      const { hash, to } = transfers[0]!;
      const ofAccount = (await get(ctx(), `/api/v1/account/token-transfers?address=${to}&offset=100`)).body.result as Transfer[];
      const ofTransaction = (await get(ctx(), `/api/v1/transaction/${hash}/token-transfers`)).body.result as Transfer[];
      const elsewhere = [...ofAccount, ...ofTransaction].filter((transfer) => transfer.token === lower);
      expect(elsewhere.length).toBeGreaterThan(1);
      for (const transfer of [...transfers, ...elsewhere]) expect(transfer).toMatchObject({ tokenName: name, tokenSymbol: symbol, tokenDecimal: decimals });
    }
    // The demo's ERC-1155 names nothing, and NFTs have no decimals.
    const multiTransfer = (await get(ctx(), `/api/v1/token/${multiToken}/transfers?offset=1`)).body.result[0];
    expect(multiTransfer).toMatchObject({ tokenName: null, tokenSymbol: null, tokenDecimal: null });
    expect((await get(ctx(), `/api/v1/token/${nft}/transfers?offset=1`)).body.result[0].tokenDecimal).toBeNull();
    // Etherscan's module keeps Etherscan's strings: '' where unknown, '0' decimals for an NFT.
    const etherscan = async (query: string) => (await get(ctx(), `/api?module=account&${query}&page=1&offset=1`)).body.result[0];
    expect(await etherscan(`action=token1155tx&contractaddress=${multiToken}`)).toMatchObject({ tokenName: '', tokenSymbol: '' });
    expect((await etherscan(`action=tokennfttx&contractaddress=${nft}`)).tokenDecimal).toBe('0');
  });

  it('latest as a block or block-range bound is the indexed head on every REST route that takes one', async () => {
    const head = await tokenTransferAtHead(ctx());
    const { token } = ctx().demo.contracts;
    const account = ctx().chain.accounts[0]!.address;
    const { bearer } = await signUp(ctx(), ['user']);
    const paths = [
      (at: string) => `/api/v1/transaction/list?blockno=${at}`,
      (at: string) => `/api/v1/account/txlist?address=${account}&startblock=${at}&endblock=${at}`,
      (at: string) => `/api/v1/account/token-transfers?address=${account}&startblock=${at}&endblock=${at}`,
      (at: string) => `/api/v1/token/${token}/transfers?startblock=${at}&endblock=${at}`,
      (at: string) => `/api/v1/contract/${token}/events?fromBlock=${at}&toBlock=${at}`,
      (at: string) => `/api/v1/export/token-transfers.csv?address=${account}&startblock=${at}&endblock=${at}`,
    ];
    for (const path of paths) {
      const [latest, numbered] = await Promise.all(['latest', String(head)].map((at) => call(ctx(), 'GET', path(at), undefined, bearer)));
      expect(latest!.status, path('latest')).toBe(200);
      expect(latest!.body, path('latest')).toEqual(numbered!.body);
      // One record: the transfer in the head block (a CSV has its header row besides).
      const body: unknown = latest!.body;
      expect(typeof body === 'string' ? body.trim().split('\n').length - 1 : (body as { result: unknown[] }).result.length, path('latest')).toBe(1);
    }
  });

  it('holders carry their share of the supply, and minBalance and paging narrow the list', async () => {
    await indexedToHead(ctx());
    const address = ctx().demo.contracts.token;
    const supply = BigInt((await get(ctx(), `/api/v1/token/${address}`)).body.result.totalSupply);
    const all = (await get(ctx(), `/api/v1/token/${address}/holders?offset=100`)).body.result.holders as { address: string; balance: string; percentage: string; firstSeen: string; lastActivity: string }[];
    for (const holder of all) {
      const exact = (Number(BigInt(holder.balance) * 10n ** 12n / supply) / 1e10).toFixed(6);
      expect(Number(holder.percentage)).toBeCloseTo(Number(exact), 5);
      expect(Number(holder.firstSeen)).toBeLessThanOrEqual(Number(holder.lastActivity));
    }
    const second = (await get(ctx(), `/api/v1/token/${address}/holders?page=2&offset=1`)).body.result;
    expect(second.holders).toEqual([all[1]]);
    const floor = all[1]!.balance;
    const rich = (await get(ctx(), `/api/v1/token/${address}/holders?minBalance=${floor}`)).body.result;
    expect(rich.holders).toEqual(all.slice(0, 2));
    expect(rich.total).toBe(2);
    const multiHolders = (await get(ctx(), `/api/v1/token/${ctx().demo.contracts.multiToken}/holders`)).body.result.holders;
    expect(multiHolders.every((h: { percentage: string | null }) => h.percentage === null)).toBe(true);
  });

  it('GET /token/:address/transfers lists newest first, filters and pages like the chain’s logs', async () => {
    const { transfers } = await chainState();
    const address = ctx().demo.contracts.token;
    const lower = address.toLowerCase();
    const moves = transfers.filter((t) => t.token === lower);
    const { body } = await get(ctx(), `/api/v1/token/${address}/transfers?offset=100`);
    const listed = body.result as { from: string; to: string; blockNumber: string; logIndex: string; tokenSymbol: string; tokenDecimal: string }[];
    expect(listed.map((t) => [t.from, t.to])).toEqual(moves.map((t) => [t.from, t.to]).reverse());
    expect(listed.every((t) => t.tokenSymbol !== '' && t.tokenDecimal === '18')).toBe(true);
    const asc = (await get(ctx(), `/api/v1/token/${address}/transfers?offset=100&sort=asc`)).body.result;
    expect(asc).toEqual([...listed].reverse());
    const sender = ctx().demo.accounts[1]!.toLowerCase();
    const fromSender = (await get(ctx(), `/api/v1/token/${address}/transfers?offset=100&from=${sender}`)).body.result as { from: string }[];
    expect(fromSender.length).toBe(moves.filter((t) => t.from === sender).length);
    expect(fromSender.every((t) => t.from === sender)).toBe(true);
    const block = listed[1]!.blockNumber;
    const inBlock = (await get(ctx(), `/api/v1/token/${address}/transfers?offset=100&startblock=${block}&endblock=${block}`)).body.result;
    expect(inBlock).toEqual(listed.filter((t) => t.blockNumber === block));
    const paged = (await get(ctx(), `/api/v1/token/${address}/transfers?page=2&offset=2`)).body.result;
    expect(paged).toEqual(listed.slice(2, 4));
  });

  it('a token’s transfer pages list its next transfer once indexed, while other tokens’ pages stay as they were', async () => {
    const chain = await ownChain();
    const first = await deployContract(chain, { ...DEMO_SOURCES }, 'DemoToken', ['First', 'FIRST', parseEther('1000')]);
    const second = await deployContract(chain, { ...DEMO_SOURCES }, 'DemoToken', ['Second', 'SECOND', parseEther('1000')]);
    const own = await ownExplorer({}, chain);
    const page = async (token: Address) => (await get(own, `/api/v1/token/${token}/transfers?offset=10`)).body.result as { to: string; value: string }[];
    const [firstBefore, secondBefore] = [await page(first), await page(second)];
    expect(firstBefore.length).toBeGreaterThan(0);
    const recipient = '0x000000000000000000000000000000000000beef';
    await send(chain, first, 'function transfer(address, uint256) returns (bool)', [recipient, 7n]);
    await indexedToHead(own);
    const firstAfter = await page(first);
    expect(firstAfter[0]).toMatchObject({ to: recipient, value: '7' });
    expect(firstAfter.slice(1)).toEqual(firstBefore);
    expect(await page(second)).toEqual(secondBefore);
  });

  it('answers 404 for an address without token transfers and 400 for bad input', async () => {
    for (const path of ['', '/holders', '/transfers']) {
      for (const address of [ctx().demo.contracts.emitter, ctx().demo.accounts[7]!]) {
        const answer = await get(ctx(), `/api/v1/token/${address}${path}`);
        expect(answer.status, path).toBe(404);
        expect(answer.body).toEqual(errorEnvelope('Error! Token contract not found'));
      }
      const malformed = await get(ctx(), `/api/v1/token/0x1234${path}`);
      expect(malformed.status).toBe(400);
      expect(malformed.body).toEqual(errorEnvelope('Error! Invalid address format'));
    }
    const token = ctx().demo.contracts.token;
    for (const query of ['holders?offset=0', 'holders?page=-1', 'holders?minBalance=-5', 'holders?minBalance=1.5', 'transfers?sort=up', 'transfers?from=0x12', 'transfers?startblock=x']) {
      const answer = await get(ctx(), `/api/v1/token/${token}/${query}`);
      expect(answer.status, query).toBe(400);
      expect(answer.body.status).toBe('0');
    }
    expect((await get(ctx(), `/api/v1/token/${token}/holders?offset=5000`)).status).toBe(200);
  });

  it('GET /token/list lists priced tokens by market cap, the rest most held first, with verified filter, limit and their profiles', async () => {
    await indexedToHead(ctx());
    const { token, nft, multiToken, quoteToken } = ctx().demo.contracts;
    const records = await Promise.all([token, nft, multiToken, quoteToken].map(async (a) => (await get(ctx(), `/api/v1/token/${a}`)).body.result));
    const byCap = (await get(ctx(), '/api/v1/token/list')).body.result as { address: string; marketCap: string | null }[];
    // DEMO (about 1 000 150 at about 2.5 USD) before DUSD (1 000 000 at 1 USD); the others have no price.
    expect(byCap.map((t) => t.address).slice(0, 2)).toEqual([token.toLowerCase(), quoteToken.toLowerCase()]);
    expect(byCap.slice(2).every((t) => t.marketCap === null)).toBe(true);
    const listed = (await get(ctx(), '/api/v1/token/list?sort=holders')).body.result as { address: string; holders: number; verified: boolean; logo: string | null }[];
    expect(listed.map((t) => t.address).sort()).toEqual(records.map((r) => r.address).sort());
    const holders = listed.map((t) => t.holders);
    expect(holders).toEqual([...holders].sort((a, b) => b - a));
    const erc20 = listed.find((t) => t.address === token.toLowerCase())!;
    expect(erc20).toEqual({
      address: token.toLowerCase(),
      name: records[0].name,
      symbol: records[0].symbol,
      decimals: '18',
      priceUSD: records[0].priceUSD,
      marketCap: records[0].marketCap,
      volume24h: records[0].volume24h,
      holders: records[0].holders,
      verified: records[0].verified,
      logo: records[0].metadata.logo,
    });

    const admin = await signUp(ctx(), ['admin', 'user']);
    // The metadata suite later replaces this profile; the multi-token must stay without one for it.
    await call(ctx(), 'PUT', `/api/v2/metadata/${nft}`, { type: 'token', logo: 'https://example.com/m.png', verified: true }, admin.bearer);
    const verified = (await get(ctx(), '/api/v1/token/list?verified=true')).body.result as { address: string; logo: string }[];
    expect(verified.map((t) => t.address)).toContain(nft.toLowerCase());
    expect(verified.find((t) => t.address === nft.toLowerCase())!.logo).toBe('https://example.com/m.png');
    const unverified = (await get(ctx(), '/api/v1/token/list?verified=false&sort=holders')).body.result as { address: string; verified: boolean }[];
    expect(unverified.map((t) => t.address)).not.toContain(nft.toLowerCase());
    expect(unverified.every((t) => !t.verified)).toBe(true);
    expect((await get(ctx(), '/api/v1/token/list?limit=1&sort=holders')).body.result).toEqual([listed[0]]);
    expect((await get(ctx(), '/api/v1/token/list?limit=1&sort=volume')).body.result).toEqual([byCap.find((t) => t.address === token.toLowerCase())]);
    for (const query of ['sort=price', 'limit=0', 'verified=maybe']) {
      expect((await get(ctx(), `/api/v1/token/list?${query}`)).status, query).toBe(400);
    }
  });

  it('GET /token/:address/analytics counts holders, their change and the top ten’s share, and prices from the pool', async () => {
    const head = await indexedToHead(ctx());
    const { token, dexPair } = ctx().demo.contracts;
    const { price, dusdReserve } = await demoPrice(head);
    // The pool opened at 2.5 DUSD and the one swap bought DEMO: low 2.5, high the price now.
    const opening = 25n * 10n ** 17n;
    const record = (await get(ctx(), `/api/v1/token/${token}`)).body.result;
    const holders = (await get(ctx(), `/api/v1/token/${token}/holders?offset=10`)).body.result.holders as { balance: string }[];
    const top10 = holders.reduce((sum, h) => sum + BigInt(h.balance), 0n);
    const { status, body } = await get(ctx(), `/api/v1/token/${token}/analytics`);
    expect(status).toBe(200);
    expect(body.result).toEqual({
      // No price or volume a day before: the chain is younger than that.
      price: { current: usd(price), change24h: null, change7d: null, high24h: usd(price), low24h: usd(opening) },
      volume: { volume24h: '1000', volumeChange24h: null },
      liquidity: { totalLiquidity: usd(2n * dusdReserve), liquidityPools: [{ dex: 'DemoSwap', pair: dexPair.toLowerCase(), liquidity: usd(2n * dusdReserve) }] },
      // The demo chain is younger than a day and indexed from genesis: a day ago there were no holders.
      holders: { total: record.holders, change24h: record.holders, top10Percentage: expect.any(Number) },
    });
    expect(body.result.holders.top10Percentage).toBeCloseTo(Number((top10 * 10n ** 8n) / BigInt(record.totalSupply)) / 1e6, 5);
    const multi = (await get(ctx(), `/api/v1/token/${ctx().demo.contracts.multiToken}/analytics`)).body.result;
    expect(multi.holders.top10Percentage).toBeNull();
    expect([multi.price.current, multi.volume.volume24h, multi.liquidity]).toEqual([null, null, { totalLiquidity: null, liquidityPools: [] }]);
    const unknown = await get(ctx(), `/api/v1/token/${ctx().demo.accounts[9]}/analytics`);
    expect(unknown.body).toEqual(errorEnvelope('Error! Token contract not found'));
  });

  it('reads every token’s name, symbol and decimals into storage beside the indexer; what a contract lacks is null', async () => {
    await indexedToHead(ctx());
    const { token, nft, multiToken } = ctx().demo.contracts;
    const client = ctx().chain.publicClient;
    const stored = async (address: Address) => (await ctx().explorer.storage.getToken(address.toLowerCase() as Address))?.metadata ?? null;
    for (const address of [token, nft, multiToken, ctx().demo.contracts.quoteToken]) await waitFor(() => stored(address), `metadata of ${address}`);
    expect(await stored(token)).toEqual({
      name: await client.readContract({ address: token, abi: VIEWS, functionName: 'name' }),
      symbol: await client.readContract({ address: token, abi: VIEWS, functionName: 'symbol' }),
      decimals: await client.readContract({ address: token, abi: VIEWS, functionName: 'decimals' }),
      interfaces: [],
    });
    expect(await stored(nft)).toEqual({
      name: await client.readContract({ address: nft, abi: VIEWS, functionName: 'name' }),
      symbol: await client.readContract({ address: nft, abi: VIEWS, functionName: 'symbol' }),
      decimals: null,
      interfaces: ['ERC-165', 'ERC-721'],
    });
    // ERC-165 interfaces as the contracts declare them, read with the rest.
    expect(await stored(multiToken)).toEqual({ name: null, symbol: null, decimals: null, interfaces: ['ERC-165', 'ERC-1155', 'ERC-1155MetadataURI'] });
    expect(await ctx().explorer.storage.listTokensWithoutMetadata(10)).toEqual([]);
  });

  it('a price source passed to createExplorer prices tokens, their list and analytics, asked at chain time', async () => {
    const demo = ctx().demo.contracts.token.toLowerCase() as Address;
    const pair = `0x${'ab'.repeat(20)}` as Address;
    const whole = (amount: string) => parseUnits(amount, 18);
    let now = -1n;
    // Fixed figures, answered only for DEMO and the times the service should ask for.
    const fixed: PriceSource = {
      pricedTokens: async () => [demo],
      price: async (token, at) => (token === demo && at === now ? whole('2') : null),
      priceAt: async (token, at) => (token !== demo ? null : at === now - DAY ? whole('1.6') : at === now - 7n * DAY ? whole('1') : null),
      priceRange: async (token, from, to) => (token === demo && from === now - DAY && to === now ? { high: whole('2.5'), low: whole('1.5') } : null),
      volume: async (token, from, to) => (token !== demo ? null : to === now && from === now - DAY ? whole('300') : to === now - DAY && from === now - 2n * DAY ? whole('200') : null),
      pools: async (token, at) => (token === demo && at === now ? [{ dex: 'Fixed', pair, liquidity: whole('1000') }] : null),
    };
    const own = await ownExplorer({ priceSource: fixed });
    const head = await indexedToHead(own);
    now = (await own.chain.publicClient.getBlock({ blockNumber: head })).timestamp;
    const supply = await own.chain.publicClient.readContract({ address: demo, abi: VIEWS, functionName: 'totalSupply', blockNumber: head });
    const prices = { priceUSD: '2', marketCap: usd(2n * supply), volume24h: '300' };

    expect((await get(own, `/api/v1/token/${demo}`)).body.result).toMatchObject(prices);
    expect((await get(own, `/api/v1/token/${demo}/analytics`)).body.result).toMatchObject({
      price: { current: '2', change24h: '25', change7d: '100', high24h: '2.5', low24h: '1.5' },
      volume: { volume24h: '300', volumeChange24h: '50' },
      liquidity: { totalLiquidity: '1000', liquidityPools: [{ dex: 'Fixed', pair, liquidity: '1000' }] },
    });
    // It replaces the chain's pairs: DUSD, priced by its pool elsewhere in this suite, has no price here.
    const quote = ctx().demo.contracts.quoteToken;
    expect((await get(own, `/api/v1/token/${quote}`)).body.result).toMatchObject({ priceUSD: null, marketCap: null, volume24h: null });
    const listed = (await get(own, '/api/v1/token/list')).body.result as { address: string; priceUSD: string | null }[];
    expect(listed[0]).toMatchObject({ address: demo, ...prices });
    expect(listed.slice(1).every((t) => t.priceUSD === null)).toBe(true);
  });

  it('without a price source every price field is null, and marketCap and volume order the list by holders', async () => {
    const own = await ownExplorer({});
    const { token, nft, multiToken, quoteToken } = ctx().demo.contracts;
    for (const address of [token, nft, multiToken, quoteToken]) {
      const record = (await get(own, `/api/v1/token/${address}`)).body.result;
      expect({ priceUSD: record.priceUSD, marketCap: record.marketCap, volume24h: record.volume24h }, address).toEqual({ priceUSD: null, marketCap: null, volume24h: null });
      const analytics = (await get(own, `/api/v1/token/${address}/analytics`)).body.result;
      expect(analytics, address).toMatchObject({
        price: { current: null, change24h: null, change7d: null, high24h: null, low24h: null },
        volume: { volume24h: null, volumeChange24h: null },
        liquidity: { totalLiquidity: null, liquidityPools: [] },
        holders: { total: record.holders },
      });
    }
    const byHolders = (await get(own, '/api/v1/token/list?sort=holders')).body.result as { holders: number; priceUSD: null; marketCap: null; volume24h: null }[];
    expect(byHolders.length).toBeGreaterThanOrEqual(4);
    expect(byHolders.every((t) => t.priceUSD === null && t.marketCap === null && t.volume24h === null)).toBe(true);
    const holders = byHolders.map((t) => t.holders);
    expect(holders).toEqual([...holders].sort((a, b) => b - a));
    for (const query of ['', '?sort=marketCap', '?sort=volume']) {
      expect((await get(own, `/api/v1/token/list${query}`)).body.result, query).toEqual(byHolders);
    }
  });

  it('holders come 50 to a page by default, and an offset above 100 is clamped to 100', async () => {
    const chain = await ownChain();
    const token = await deployContract(chain, { ...DEMO_SOURCES }, 'DemoToken', ['Crowded', 'CRWD', parseEther('1000000')]);
    const spreader = await deployContract(chain, { 'Crowds.sol': CROWDS }, 'Spreader');
    await send(chain, token, 'function approve(address, uint256) returns (bool)', [spreader, parseEther('1')]);
    // 120 fresh holders (i + 1 base units each) beside the deployer.
    await send(chain, spreader, 'function spread(address, uint256)', [token, 120n]);
    const own = await ownExplorer({}, chain);
    const page = async (query: string) => (await get(own, `/api/v1/token/${token}/holders${query}`)).body.result as { total: number; page: number; holders: { balance: string }[] };

    const hundred = await page('?offset=100');
    expect([hundred.total, hundred.holders.length]).toEqual([121, 100]);
    const byDefault = await page('');
    expect(byDefault).toEqual({ total: 121, page: 1, holders: hundred.holders.slice(0, 50) });
    for (const offset of ['101', '5000']) expect(await page(`?offset=${offset}`), offset).toEqual(hundred);
    const second = await page('?page=2&offset=5000');
    expect(second.holders).toHaveLength(21);
    expect(second).toEqual(await page('?page=2&offset=100'));
    expect(second.holders.at(-1)!.balance).toBe('1');
  });

  it('the token list holds 100 tokens by default, and a limit above 1000 is clamped to 1000', async () => {
    const chain = await ownChain();
    const factory = await deployContract(chain, { 'Crowds.sol': CROWDS }, 'TokenFactory');
    // 1 004 tokens of one holder each, 251 created per transaction (well within a block's gas).
    for (let round = 0; round < 4; round++) await send(chain, factory, 'function create(uint256)', [251n]);
    const own = await ownExplorer({}, chain);
    const list = async (query: string) => (await get(own, `/api/v1/token/list?sort=holders${query}`)).body.result as { address: string }[];

    const thousand = await list('&limit=1000');
    expect(new Set(thousand.map((t) => t.address)).size).toBe(1_000);
    for (const limit of ['1001', '1000000']) expect(await list(`&limit=${limit}`), limit).toEqual(thousand);
    expect(await list('')).toEqual(thousand.slice(0, 100));
    // 1,004 contracts are created and their metadata read (several thousand eth_calls): about 2 s
    // alone, but once over 60 s in CI with every suite and its anvil sharing two cores.
  }, 180_000);
}
