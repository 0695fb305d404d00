import { createExplorer, type Explorer, type Hex, type PriceSource, type TokenPriceEvent } from '@chainlens/core';
import { createTestChain, deployDemo, type DemoDeployment, type TestChain } from '@chainlens/devchain';
import { waitFor } from '@chainlens/testing';
import { memoryStorage } from '@chainlens/storage-memory';
import { pino } from 'pino';
import { formatUnits, parseAbi, parseEther, parseEventLogs, type Address } from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rpc } from './helpers.js';

const PAIR = parseAbi([
  'function getReserves() view returns (uint112, uint112, uint32)',
  'function swap(uint256 amount0Out, uint256 amount1Out, address to)',
  'event Sync(uint112 reserve0, uint112 reserve1)',
  'event Swap(address indexed sender, uint256 amount0In, uint256 amount1In, uint256 amount0Out, uint256 amount1Out, address indexed to)',
]);
const ERC20 = parseAbi(['function transfer(address, uint256) returns (bool)', 'function totalSupply() view returns (uint256)']);
const E18 = 10n ** 18n;
const DAY = 86_400;

let chain: TestChain;
let demo: DemoDeployment;
let explorer: Explorer;
let DEMO: Hex;
let DUSD: Hex;
let PAIR_ADDRESS: Hex;
/** DEMO is token0 exactly when its address sorts first. */
let demoIsToken0: boolean;

/** DEMO's and DUSD's reserves (DUSD per DEMO is the price: both have 18 decimals, DUSD is worth 1 USD). */
async function reserves(blockNumber?: bigint): Promise<{ demo: bigint; dusd: bigint }> {
  const [r0, r1] = await chain.publicClient.readContract({ address: PAIR_ADDRESS, abi: PAIR, functionName: 'getReserves', ...(blockNumber !== undefined && { blockNumber }) });
  return demoIsToken0 ? { demo: r0, dusd: r1 } : { demo: r1, dusd: r0 };
}

/** The price the pool's reserves give, in USD (18 decimals, truncated), as the API writes it. */
const priceOf = (r: { demo: bigint; dusd: bigint }) => (r.dusd * E18) / r.demo;
const usd = (value: bigint) => formatUnits(value, 18);
const percent = (now: bigint, before: bigint) => formatUnits(((now - before) * 100n * 10n ** 6n) / before, 6);

async function indexedToHead(): Promise<bigint> {
  const head = await chain.publicClient.getBlockNumber();
  await waitFor(async () => ((await explorer.storage.getCursor())?.number ?? -1n) >= head, `indexing to ${head}`);
  return head;
}

/** Buys DEMO with `dusdIn` DUSD on the pool (Uniswap V2 style: pay in, then swap); resolves the receipt. */
async function buyDemo(dusdIn: bigint) {
  const r = await reserves();
  const out = (dusdIn * 997n * r.demo) / (r.dusd * 1000n + dusdIn * 997n);
  const wallet = chain.walletClient;
  const paid = await wallet.writeContract({ address: DUSD, abi: ERC20, functionName: 'transfer', args: [PAIR_ADDRESS, dusdIn] });
  await chain.publicClient.waitForTransactionReceipt({ hash: paid, pollingInterval: 10 });
  const hash = await wallet.writeContract({ address: PAIR_ADDRESS, abi: PAIR, functionName: 'swap', args: demoIsToken0 ? [out, 0n, wallet.account.address] : [0n, out, wallet.account.address] });
  return chain.publicClient.waitForTransactionReceipt({ hash, pollingInterval: 10 });
}

/** Every price the pool's Sync logs set, in chain order. */
async function syncPrices(): Promise<bigint[]> {
  const logs = await chain.publicClient.getLogs({ address: PAIR_ADDRESS, fromBlock: 0n });
  return parseEventLogs({ abi: PAIR, logs, eventName: 'Sync' }).map(({ args }) => priceOf(demoIsToken0 ? { demo: args.reserve0, dusd: args.reserve1 } : { demo: args.reserve1, dusd: args.reserve0 }));
}

const max = (values: bigint[]) => values.reduce((a, b) => (b > a ? b : a));
const min = (values: bigint[]) => values.reduce((a, b) => (b < a ? b : a));

beforeAll(async () => {
  chain = await createTestChain();
  demo = await deployDemo({ rpcUrl: chain.rpcUrl });
  DEMO = demo.contracts.token.toLowerCase() as Hex;
  DUSD = demo.contracts.quoteToken.toLowerCase() as Hex;
  PAIR_ADDRESS = demo.contracts.dexPair.toLowerCase() as Hex;
  demoIsToken0 = DEMO < DUSD;
  explorer = await createExplorer({
    rpcUrl: chain.rpcUrl,
    storage: memoryStorage(),
    logger: pino({ level: 'silent' }),
    indexer: { pollIntervalMs: 20, retryBaseMs: 20, maxBackoffMs: 200 },
    pending: { pollIntervalMs: 20 },
    prices: { quoteToken: demo.contracts.quoteToken, quoteTokenUsd: '1', dexes: [{ name: 'DemoSwap', factory: demo.contracts.dexFactory }] },
  });
  await explorer.start();
  await indexedToHead();
}, 120_000);

afterAll(async () => {
  await explorer?.close();
  await chain?.close();
});

describe('prices from Uniswap-V2 pairs on the chain', () => {
  it('prices DEMO at its pool’s reserves, with market cap, volume, high, low and liquidity from the pool’s own logs', async () => {
    const head = await indexedToHead();
    const r = await reserves(head);
    const price = priceOf(r);
    const supply = await chain.publicClient.readContract({ address: DEMO, abi: ERC20, functionName: 'totalSupply', blockNumber: head });
    const token = await explorer.services.tokens.token(DEMO);
    // The deployment's one swap paid 1 000 DUSD in.
    expect({ priceUSD: token.priceUSD, marketCap: token.marketCap, volume24h: token.volume24h }).toEqual({
      priceUSD: usd(price),
      marketCap: usd((price * supply) / E18),
      volume24h: '1000',
    });
    expect(Number(token.priceUSD)).toBeGreaterThan(2.5);
    const prices = await syncPrices();
    expect(prices.length).toBe(2);
    expect(await explorer.services.tokens.analytics(DEMO)).toMatchObject({
      // The whole chain is younger than a day: no price a day or a week before, no earlier volume.
      price: { current: usd(price), change24h: null, change7d: null, high24h: usd(max(prices)), low24h: usd(min(prices)) },
      volume: { volume24h: '1000', volumeChange24h: null },
      liquidity: { totalLiquidity: usd(2n * r.dusd), liquidityPools: [{ dex: 'DemoSwap', pair: PAIR_ADDRESS, liquidity: usd(2n * r.dusd) }] },
    });
  });

  it('the quote token is worth its configured price; a token without a pool has none', async () => {
    const head = await indexedToHead();
    const supply = await chain.publicClient.readContract({ address: DUSD, abi: ERC20, functionName: 'totalSupply', blockNumber: head });
    expect(await explorer.services.tokens.token(DUSD)).toMatchObject({ priceUSD: '1', marketCap: usd(supply), volume24h: '1000' });
    const nft = demo.contracts.nft.toLowerCase() as Hex;
    expect(await explorer.services.tokens.token(nft)).toMatchObject({ priceUSD: null, marketCap: null, volume24h: null });
    expect((await explorer.services.tokens.analytics(nft)).price).toEqual({ current: null, change24h: null, change7d: null, high24h: null, low24h: null });
  });

  it('lists priced tokens first by market cap or volume, then the rest by holders', async () => {
    await indexedToHead();
    const byCap = await explorer.services.tokens.list({ sort: 'marketCap', limit: 100 });
    // DUSD: 1 000 000 at 1 USD; DEMO: about 1 000 150 at about 2.5 USD.
    expect(byCap.slice(0, 2).map((t) => t.address)).toEqual([DEMO, DUSD]);
    expect(byCap.slice(2).every((t) => t.priceUSD === null)).toBe(true);
    const byHolders = await explorer.services.tokens.list({ sort: 'holders', limit: 100 });
    expect(new Set(byHolders.map((t) => t.address))).toEqual(new Set(byCap.map((t) => t.address)));
    expect(byHolders.find((t) => t.address === DEMO)?.priceUSD).toBe(byCap[0]!.priceUSD);
    const holders = byHolders.map((t) => t.holders);
    expect(holders).toEqual([...holders].sort((a, b) => b - a));
  });

  it('publishes token_price for a block that syncs the pool, at that block’s reserves', async () => {
    const events: TokenPriceEvent[] = [];
    const listener = (event: TokenPriceEvent) => events.push(event);
    explorer.hub.on('tokenPrice', listener);
    try {
      const receipt = await buyDemo(parseEther('500'));
      const event = await waitFor(() => events.find((e) => e.blockNumber === receipt.blockNumber), 'a token_price event');
      const block = await chain.publicClient.getBlock({ blockNumber: receipt.blockNumber });
      expect(event).toEqual({ address: DEMO, priceUSD: usd(priceOf(await reserves(receipt.blockNumber))), change24h: null, timestamp: block.timestamp, blockNumber: receipt.blockNumber, blockHash: block.hash });
    } finally {
      explorer.hub.off('tokenPrice', listener);
    }
  });

  it('a day later, changes compare with the price standing a day before and yesterday’s volume moves to the previous window', async () => {
    const before = priceOf(await reserves());
    await rpc(chain.rpcUrl, 'evm_increaseTime', [DAY + 60]);
    const receipt = await buyDemo(parseEther('3000'));
    await indexedToHead();
    const after = priceOf(await reserves(receipt.blockNumber));
    expect(after).toBeGreaterThan(before);
    expect(await explorer.services.tokens.analytics(DEMO)).toMatchObject({
      price: { current: usd(after), change24h: percent(after, before), change7d: null, high24h: usd(after), low24h: usd(before) },
      // 1 500 DUSD swapped the day before (1 000 at deployment, 500 above), 3 000 today.
      volume: { volume24h: '3000', volumeChange24h: '100' },
    });
  });

  it('a week later the 7 d change has a price to compare with, and a quiet day has no volume', async () => {
    const weekAgo = (await explorer.services.prices.market(DEMO))!.price!;
    await rpc(chain.rpcUrl, 'evm_increaseTime', [7 * DAY + 60]);
    await rpc(chain.rpcUrl, 'evm_mine');
    await indexedToHead();
    const market = (await explorer.services.prices.market(DEMO))!;
    expect(market.price).toBe(weekAgo);
    expect([market.change24h, market.change7d, market.high24h, market.low24h]).toEqual(['0', '0', weekAgo, weekAgo]);
    expect([market.volume24h, market.volumeChange24h]).toEqual([0n, null]);
  });
});

describe('a price source of your own', () => {
  /** Prices DEMO at the chain time it is asked for, in whole USD: a price that tells when it was asked. */
  const clockSource = (): PriceSource => ({
    pricedTokens: async () => [DEMO],
    price: async (token, now) => (token === DEMO ? now * E18 : null),
    priceAt: async () => null,
    priceRange: async () => null,
    volume: async (token) => (token === DEMO ? 0n : null),
    pools: async (token) => (token === DEMO ? [] : null),
  });

  it('is checked once, at creation: something else, or one beside prices, is refused naming the fix', async () => {
    const base = { rpcUrl: chain.rpcUrl, storage: memoryStorage(), logger: pino({ level: 'silent' }) };
    const withoutPools = { ...clockSource(), pools: undefined } as unknown as PriceSource;
    await expect(createExplorer({ ...base, priceSource: withoutPools })).rejects.toThrow(
      'Invalid ChainLens config: priceSource: must be a PriceSource: an object with pricedTokens, price, priceAt, priceRange, volume and pools methods (tokensMovedBy and a lowercase nativeToken address optional)',
    );
    await expect(createExplorer({ ...base, priceSource: { ...clockSource(), nativeToken: demo.contracts.token.toUpperCase() as Hex } })).rejects.toThrow(/priceSource: must be a PriceSource/);
    const prices = { quoteToken: DUSD, quoteTokenUsd: '1', dexes: [{ name: 'DemoSwap', factory: demo.contracts.dexFactory }] };
    await expect(createExplorer({ ...base, prices, priceSource: clockSource() })).rejects.toThrow(
      'Invalid ChainLens config: priceSource: set either prices (Uniswap-V2 pairs on the chain) or priceSource (your own), not both',
    );
  });

  it('prices the native coin as the token it names nativeToken, at the newest indexed block’s time; without one the coin has no price', async () => {
    expect({ token: explorer.services.prices.nativeToken, price: await explorer.services.prices.nativePrice() }).toEqual({ token: null, price: null });
    const own = await createExplorer({
      rpcUrl: chain.rpcUrl,
      storage: memoryStorage(),
      logger: pino({ level: 'silent' }),
      indexer: { pollIntervalMs: 20, retryBaseMs: 20, maxBackoffMs: 200 },
      priceSource: { ...clockSource(), nativeToken: DEMO },
    });
    try {
      await own.start();
      const head = await chain.publicClient.getBlockNumber({ cacheTime: 0 });
      const at = await waitFor(async () => {
        const cursor = await own.storage.getCursor();
        return cursor && cursor.number >= head ? cursor.number : null;
      }, `indexing block ${head}`);
      const { timestamp } = await chain.publicClient.getBlock({ blockNumber: at });
      expect(await own.services.prices.nativePrice()).toEqual({ usd: timestamp * E18, timestamp });
    } finally {
      await own.close();
    }
  });

  it('publishes token_price for the tokens its tokensMovedBy names, priced at that block’s time', async () => {
    const own = await createExplorer({
      rpcUrl: chain.rpcUrl,
      storage: memoryStorage(),
      logger: pino({ level: 'silent' }),
      indexer: { pollIntervalMs: 20, retryBaseMs: 20, maxBackoffMs: 200 },
      priceSource: { ...clockSource(), tokensMovedBy: async ({ transactions }) => (transactions.length > 0 ? [DEMO] : []) },
    });
    const events: TokenPriceEvent[] = [];
    own.hub.on('tokenPrice', (event) => events.push(event));
    try {
      await own.start();
      const hash = await chain.walletClient.sendTransaction({ to: chain.accounts[1]!.address, value: 1n });
      const { blockNumber, blockHash } = await chain.publicClient.waitForTransactionReceipt({ hash, pollingInterval: 10 });
      const event = await waitFor(() => events.find((e) => e.blockNumber === blockNumber), 'a token_price event');
      const { timestamp } = await chain.publicClient.getBlock({ blockNumber });
      expect(event).toEqual({ address: DEMO, priceUSD: timestamp.toString(), change24h: null, timestamp, blockNumber, blockHash });
    } finally {
      await own.close();
    }
  });
});
