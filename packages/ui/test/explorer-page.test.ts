import { mkdir } from 'node:fs/promises';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { attachChainlensSockets, chainlensRouter } from '@chainlens/adapter-express';
import { chainlens } from '@chainlens/adapter-fastify';
import { createExplorer, handleClientError, type ChartRecord, type ChartSeriesRecord, type Explorer, type TokenRecord } from '@chainlens/core';
import { DEMO_SOURCES, compileContracts, createTestChain, deployDemo, startDemoActivity, type DemoActivity, type DemoDeployment, type TestChain } from '@chainlens/devchain';
import { indexedThrough, signUp, waitFor } from '@chainlens/testing';
import { memoryStorage } from '@chainlens/storage-memory';
import express from 'express';
import Fastify from 'fastify';
import { pino } from 'pino';
import { chromium, type Browser, type Page, type Response } from 'playwright-core';
import { createTestClient, createWalletClient, encodeFunctionData, http, parseAbi, parseEther, type Abi, type Address, type Hash } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf, verifyEmitter } from './page-helpers.js';
import { bucketLabel, latestOf, MEASURES, titleOf } from '../src/chart-series.js';
import { formatEth, formatUsd, shorten } from '../src/format.js';

/** Debian's chromium; CI installs it (.ci/run). */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** Where the screenshots go, to look at what a person sees. */
const SHOTS = join(tmpdir(), 'chainlens-ui-screenshots');
/** What Chromium logs for every fetch answered 404: expected only where a page shows "not found". */
const NOT_FOUND_LOG = 'Failed to load resource: the server responded with a status of 404 (Not Found)';
/** Where the page is served, below where ChainLens is mounted: not the root, so its links are seen to stay under it. */
const UI_PATH = '/explorer-ui';
/** The public labels an admin gives: the demo's deployer (who sent its transfer and holds most DEMO), anvil's coinbase (every block's miner) and the event emitter. */
const LABELS = { deployer: 'Demo deployer', miner: 'Anvil coinbase', emitter: 'Event emitter' };
/** An address's transactions page holds this many (the page's page size). */
const PAGE_SIZE = 25;

interface Served {
  adapter: string;
  /** Where ChainLens is mounted: Fastify at the root, Express under `/explorer/`. */
  api: string;
  /** The page's address, {@link UI_PATH} under {@link Served.api}. */
  url: string;
  close(): Promise<void>;
}

/** One page in the browser, with everything it asked for and every error it logged. */
interface Visit {
  page: Page;
  /** Requests and WebSocket connections to anywhere but the server's origin. */
  outside: string[];
  errors: string[];
  /** The answer to each chart the page read, by series, resolution and token (see {@link chartKey}); the newest where it read one again. */
  charts: Map<string, Response>;
}

/** What a chart request is known by in {@link Visit.charts}. */
function chartKey(name: string, resolution: string | null, token: string | null): string {
  return `${name} ${resolution} ${token ?? ''}`;
}

let chain: TestChain;
let demo: DemoDeployment;
let activity: DemoActivity;
let explorer: Explorer;
let browser: Browser;
const served: Served[] = [];
/** An account of the test's own, so no demo round races its nonces; every transaction it sent, oldest first. */
const own = privateKeyToAccount(generatePrivateKey());
const ownSent: Hash[] = [];

// One chain with the demo's contracts and ongoing activity, one explorer, both adapters serving it
// (the same kernel), one browser.
beforeAll(async () => {
  chain = await createTestChain();
  demo = await deployDemo({ rpcUrl: chain.rpcUrl });
  activity = startDemoActivity({ rpcUrl: chain.rpcUrl }, demo, { intervalMs: 500 });
  explorer = await createExplorer({
    rpcUrl: chain.rpcUrl,
    storage: memoryStorage(),
    logger: pino({ level: 'silent' }),
    indexer: { pollIntervalMs: 50 },
    // As `npm start`'s demo chain has them: DEMO priced on the demo DEX against DUSD at $1.
    prices: { quoteToken: demo.contracts.quoteToken, quoteTokenUsd: '1', dexes: [{ name: 'DemoSwap', factory: demo.contracts.dexFactory }] },
    ui: { path: UI_PATH },
    // Both adapters' pages come from one address here; the tiers have tests of their own.
    rateLimits: { anonymous: { perMinute: 100_000, perDay: 1_000_000 } },
  });
  served.push(await serveFastify(explorer), await serveExpress(explorer, '/explorer'));
  await explorer.start();
  await waitFor(async () => ((await explorer.storage.getCursor())?.number ?? -1n) >= demo.toBlock, 'the demo indexed');
  // The event emitter's source verified for real (solc, bytecode match), for its contract tab.
  await verifyEmitter(explorer, demo.contracts.emitter);
  // More transactions than a page holds, for the pager.
  await createTestClient({ mode: 'anvil', chain: chain.chain, transport: http(chain.rpcUrl) }).setBalance({ address: own.address, value: parseEther('100') });
  let last = 0n;
  for (let i = 0; i <= PAGE_SIZE; i++) last = await sendOwn(demo.accounts[6]!);
  await waitFor(() => indexedThrough(explorer, last), 'the own transactions indexed');
  const admin = await signUp({ url: served[0]!.api.replace(/\/$/, ''), explorer }, ['admin', 'user']);
  const miner = (await chain.publicClient.getBlock()).miner;
  for (const [address, label] of [[demo.accounts[0]!, LABELS.deployer], [miner, LABELS.miner], [demo.contracts.emitter, LABELS.emitter]] as const) {
    const answer = await fetch(`${served[0]!.api}api/v2/labels/${address}`, { method: 'PUT', headers: { ...admin.bearer, 'content-type': 'application/json' }, body: JSON.stringify({ label }) });
    expect(answer.status).toBe(200);
  }
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  await mkdir(SHOTS, { recursive: true });
});

afterAll(async () => {
  await browser?.close();
  await activity?.stop();
  // The explorer first: it closes the WebSocket connections, which an HTTP server's close waits for.
  await explorer?.close();
  for (const server of served) await server.close();
  await chain?.close();
});

/** Transactions the transaction page explains: a verified contract's custom error, and an EIP-7702 delegation to the event emitter. */
const explained = { delegator: privateKeyToAccount(generatePrivateKey()), customError: '' as Hash, delegation: '' as Hash };

// A second Reverter of the test's own, verified (the demo's stays unverified for the contract tab's
// test), fails with its custom error; a fresh account delegates to the event emitter and pings itself.
beforeAll(async () => {
  const { Reverter } = await compileContracts({ 'Reverter.sol': DEMO_SOURCES['Reverter.sol']! });
  const funder = createTestClient({ mode: 'anvil', chain: chain.chain, transport: http(chain.rpcUrl) });
  await funder.setBalance({ address: explained.delegator.address, value: parseEther('10') });
  const wallet = createWalletClient({ account: explained.delegator, chain: chain.chain, transport: http(chain.rpcUrl) });
  const deployment = await wallet.deployContract({ abi: Reverter!.abi as Abi, bytecode: Reverter!.bytecode });
  const reverter = (await chain.publicClient.waitForTransactionReceipt({ hash: deployment })).contractAddress!;
  explained.customError = await wallet.sendTransaction({ to: reverter, data: encodeFunctionData({ abi: Reverter!.abi, functionName: 'failCustom' }), gas: 100_000n });
  await chain.publicClient.waitForTransactionReceipt({ hash: explained.customError });
  const authorization = await wallet.signAuthorization({ contractAddress: demo.contracts.emitter, executor: 'self' });
  explained.delegation = await wallet.sendTransaction({ authorizationList: [authorization], to: explained.delegator.address, data: encodeFunctionData({ abi: parseAbi(['function ping(string note) returns (uint256)']), functionName: 'ping', args: ['delegated'] }) });
  const { blockNumber } = await chain.publicClient.waitForTransactionReceipt({ hash: explained.delegation });
  await explorer.services.verification.verify({ address: reverter, sourceCode: DEMO_SOURCES['Reverter.sol']!, contractName: 'Reverter', compilerVersion: '0.8.37', optimizationUsed: true, runs: 200, evmVersion: 'cancun' });
  await waitFor(() => indexedThrough(explorer, blockNumber), 'the explained transactions indexed');
});

/** Sends 1 wei from {@link own} to `to` and waits until it is mined; resolves with its block. */
async function sendOwn(to: Address): Promise<bigint> {
  const wallet = createWalletClient({ account: own, chain: chain.chain, transport: http(chain.rpcUrl) });
  const hash = await wallet.sendTransaction({ to, value: 1n, gas: 21_000n });
  ownSent.push(hash);
  return (await chain.publicClient.waitForTransactionReceipt({ hash })).blockNumber;
}

async function serveFastify(target: Explorer): Promise<Served> {
  const app = Fastify({ clientErrorHandler: handleClientError });
  await app.register(chainlens, { explorer: target });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const api = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/`;
  return { adapter: 'fastify', api, url: `${api}${UI_PATH.slice(1)}`, close: () => app.close() };
}

async function serveExpress(target: Explorer, prefix: string): Promise<Served> {
  const app = express();
  app.use(prefix, chainlensRouter(target));
  const server = createServer({ keepAliveTimeout: 72_000 }, app);
  const detach = attachChainlensSockets(server, target, { prefix });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const api = `http://127.0.0.1:${(server.address() as AddressInfo).port}${prefix}/`;
  return {
    adapter: 'express',
    api,
    url: `${api}${UI_PATH.slice(1)}`,
    close: () =>
      new Promise<void>((resolve) => {
        detach();
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

describe.each(['fastify', 'express'])('the explorer page in Chromium through %s', (adapter) => {
  const server = () => served.find((candidate) => candidate.adapter === adapter)!;
  const origin = () => new URL(server().url).origin;

  const open: Page[] = [];
  // A failed test leaves its page open: closed here, so its socket does not outlive the test.
  afterEach(async () => {
    for (const page of open.splice(0)) if (!page.isClosed()) await page.close();
  });

  async function visit(fragment = ''): Promise<Visit> {
    const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
    open.push(page);
    const visited: Visit = { page, outside: [], errors: [], charts: new Map() };
    page.on('request', (request) => {
      if (new URL(request.url()).origin !== origin()) visited.outside.push(request.url());
    });
    page.on('websocket', (socket) => {
      if (new URL(socket.url()).host !== new URL(origin()).host) visited.outside.push(socket.url());
    });
    page.on('console', (message) => {
      if (message.type() === 'error') visited.errors.push(message.text());
    });
    page.on('pageerror', (error) => visited.errors.push(error.message));
    page.on('response', (response) => {
      const url = new URL(response.url());
      const name = /\/api\/v1\/stats\/charts\/([^/]+)$/.exec(url.pathname)?.[1];
      if (name) visited.charts.set(chartKey(name, url.searchParams.get('resolution'), url.searchParams.get('token')), response);
    });
    await page.goto(`${server().url}${fragment}`);
    return visited;
  }

  /** Saves what the page shows as `{adapter}-{name}.png` in {@link SHOTS}. */
  async function shoot(page: Page, name: string): Promise<void> {
    await page.screenshot({ path: join(SHOTS, `${server().adapter}-${name}.png`), fullPage: true });
  }

  /** Closes the page, checking it fetched only from the server and logged no error (but `allowed`). */
  async function leave(visited: Visit, shot: string, allowed: string[] = []): Promise<void> {
    await shoot(visited.page, shot);
    await visited.page.close();
    expect(visited.outside).toEqual([]);
    expect(visited.errors.filter((error) => !allowed.includes(error))).toEqual([]);
  }

  async function search(page: Page, q: string): Promise<void> {
    await page.getByLabel('Search the chain').fill(q);
    await page.getByLabel('Search the chain').press('Enter');
  }

  /** Checks the series' chart draws a mark for each known value of the API's answer and names its latest value. */
  async function expectDrawn({ page, charts }: Visit, series: ChartSeriesRecord, resolution: 'day' | 'hour', token: string | null = null): Promise<void> {
    const chart = page.getByRole('img', { name: `${titleOf(series.name)}, by ${resolution} (UTC)` });
    await chart.waitFor();
    const key = chartKey(series.name, resolution, token);
    await expect.poll(() => charts.has(key)).toBe(true);
    const answer = ((await charts.get(key)!.json()) as { result: ChartRecord }).result;
    expect(await chart.locator('.mark').count()).toBe(answer.points.filter((point) => point.value !== null).length);
    const latest = latestOf(answer.points)!;
    const text = `${MEASURES[series.unit].text(latest.value)} on ${bucketLabel(latest.timestamp, resolution)}`;
    expect(await chart.getAttribute('aria-label')).toContain(`latest ${text}`);
    expect(await page.locator('figure', { has: chart }).locator('figcaption').innerText()).toContain(text);
  }

  /** The value a description list gives `name`, e.g. a transaction's `Fee`. */
  function detail(page: Page, list: string, name: string): Promise<string> {
    return page.locator(`dl[aria-label="${list}"] .row`).filter({ has: page.getByRole('term').getByText(name, { exact: true }) }).getByRole('definition').innerText();
  }

  /** Where the links of the table its caption names lead, e.g. `#/tx/0x…`, in its order. */
  async function linksOf(page: Page, caption: string, to: string): Promise<(string | null)[]> {
    const table = page.locator('table', { has: page.locator('caption', { hasText: caption }) });
    await table.waitFor();
    return Promise.all((await table.locator(`tbody a[href^="${to}"]`).all()).map((link) => link.getAttribute('href')));
  }

  /** Checks a transaction page's value and fee against the chain's transaction and receipt. */
  async function expectValueAndFee(page: Page, hash: Hash): Promise<void> {
    const [tx, receipt] = await Promise.all([chain.publicClient.getTransaction({ hash }), chain.publicClient.getTransactionReceipt({ hash })]);
    await expect(detail(page, 'Transaction details', 'Value')).resolves.toBe(formatEth(tx.value.toString(), 18));
    await expect(detail(page, 'Transaction details', 'Fee')).resolves.toBe(formatEth((receipt.gasUsed * receipt.effectiveGasPrice).toString(), 18));
  }

  /** The block number in the first row of the latest blocks. */
  async function newestShownBlock(page: Page): Promise<bigint> {
    return BigInt(await page.locator('table', { has: page.locator('caption', { hasText: 'newest indexed blocks' }) }).locator('tbody tr').first().locator('td').first().innerText());
  }

  it('home shows network figures and the latest blocks and transactions, new blocks and transactions arrive without a reload, and its links stay under its path', async () => {
    const visited = await visit();
    const { page } = visited;
    await page.getByRole('heading', { name: 'Explorer', level: 1 }).waitFor();
    await page.getByTitle('New blocks arrive here as they are indexed').getByText(/^Live/).waitFor();
    await page.locator('caption', { hasText: 'newest indexed blocks' }).waitFor();
    await page.locator('caption', { hasText: 'newest indexed transactions' }).waitFor();
    await expect.poll(() => page.getByRole('region', { name: 'Network statistics' }).innerText()).toMatch(/Block height\s+\d[\s\S]*Contracts\s+\d/);
    const first = await newestShownBlock(page);
    // Every transaction the latest transactions ever listed: the demo's newer ones soon push a row out.
    await page.evaluate(
      "window.listedTransactions = new Set(); new MutationObserver(() => { for (const link of document.querySelectorAll('[aria-labelledby=\"latest-transactions\"] a[href^=\"#/tx/\"]')) window.listedTransactions.add(link.getAttribute('href')); }).observe(document.querySelector('main'), { subtree: true, childList: true, attributes: true })",
    );
    const requests: string[] = [];
    page.on('request', (request) => requests.push(request.url()));
    // The demo activity mines on: a newer block shows up in place, read from the blocks channel.
    await waitFor(async () => (await newestShownBlock(page)) > first, 'a newer block on the home page', 30_000, 100);
    // A transaction sent now shows up too, read from the transactions channel.
    await sendOwn(demo.accounts[6]!);
    const sent = ownSent.at(-1)!;
    await waitFor(() => page.evaluate(`window.listedTransactions.has('#/tx/${sent}')`), 'the new transaction on the home page', 30_000, 100);
    expect(requests.filter((url) => url.includes('/api/v1/block') || url.includes('/api/v1/transaction'))).toEqual([]);
    await shoot(page, 'home');
    // Served below the mount point, the page links within itself (its routes are fragments) and to the API reference at the mount point.
    const links = await page.evaluate<string[]>("[...document.querySelectorAll('a[href]')].map((link) => link.href)");
    expect(links.length).toBeGreaterThan(20);
    expect(links.filter((link) => !link.startsWith(`${server().url}#`))).toEqual([`${server().api}docs`]);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Blocks' }).click();
    await page.getByRole('heading', { name: 'Blocks', level: 1 }).waitFor();
    expect(page.url()).toBe(`${server().url}#/blocks`);
    await leave(visited, 'blocks');
  });

  it("charts every chain-wide series from the API's points, per day and per hour, and a token's own series on its page", async () => {
    const visited = await visit();
    const { page } = visited;
    const series = ((await (await fetch(`${server().api}api/v1/stats/charts`)).json()) as { result: ChartSeriesRecord[] }).result;
    // Home's one chart, before the page of them all.
    await expectDrawn(visited, series.find((one) => one.name === 'transactions')!, 'day');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Charts' }).click();
    await page.getByRole('heading', { name: 'Charts', level: 1 }).waitFor();
    const chainWide = series.filter((one) => one.token !== 'required');
    for (const one of chainWide) await expectDrawn(visited, one, 'day');
    await page.getByRole('button', { name: 'Per hour' }).click();
    for (const one of chainWide) await expectDrawn(visited, one, 'hour');
    await shoot(page, 'charts');
    const token = demo.contracts.token.toLowerCase();
    await page.goto(`${server().url}#/token/${token}`);
    // DEMO is priced on the demo DEX: its price is charted beside its transfers and holders.
    for (const one of series.filter((candidate) => candidate.token !== 'none')) await expectDrawn(visited, one, 'day', token);
    await leave(visited, 'token-charts');
  });

  it("searching a transaction hash opens the transaction with its status, value, fee, logs, token transfers and its parties' labels", async () => {
    const visited = await visit();
    const { page } = visited;
    const hash = demo.transactions.transfer;
    await search(page, hash);
    await page.waitForURL(`**#/tx/${hash}`);
    await page.getByRole('heading', { name: 'Transaction', level: 1 }).waitFor();
    const dl = page.locator('dl[aria-label="Transaction details"]');
    await dl.waitFor();
    await expect(dl.getByRole('definition').filter({ hasText: 'Success' }).count()).resolves.toBe(1);
    const receipt = await chain.publicClient.getTransactionReceipt({ hash });
    await expect(dl.innerText()).resolves.toContain(`${receipt.blockNumber}`);
    const sender = receipt.from.toLowerCase();
    // The sender's public label, its address written out beside it and naming the link.
    await expect(detail(page, 'Transaction details', 'From')).resolves.toBe(`${LABELS.deployer} ${sender}`);
    await expect(dl.getByRole('link', { name: `${LABELS.deployer} (${sender})` }).getAttribute('href')).resolves.toBe(`#/address/${sender}`);
    await expectValueAndFee(page, hash);
    // The token moved from the labelled deployer to account 1.
    await expect(rowsOf(page, 'Tokens this transaction moved')).resolves.toEqual([[shorten(hash, 6), String(receipt.blockNumber), expect.stringMatching(/ago$/), LABELS.deployer, shorten(demo.accounts[1]!.toLowerCase(), 6), '1,000 DEMO', 'DEMO ERC-20']]);
    await page.getByText('Transfer(address,address,uint256)').first().waitFor();
    await page.getByText('No internal transactions', { exact: false }).waitFor();
    await shoot(page, 'transaction');
    // A plain transfer of 1 ETH, for a value other than zero.
    await page.goto(`${server().url}#/tx/${demo.transactions.nativeTransfer}`);
    await expect(detail(page, 'Transaction details', 'Value')).resolves.toBe('1 ETH');
    await expectValueAndFee(page, demo.transactions.nativeTransfer);
    await leave(visited, 'transaction-native');
  });

  it('a reverted transaction shows its failure and revert reason', async () => {
    const visited = await visit(`#/tx/${demo.transactions.failed}`);
    const dl = visited.page.locator('dl[aria-label="Transaction details"]');
    await dl.waitFor();
    await expect(dl.innerText()).resolves.toContain('Failed');
    await expect(dl.innerText()).resolves.toContain('Reverter: always fails');
    await leave(visited, 'transaction-failed');
  });

  it("a transaction's calls that moved value or created contracts are listed once traced", async () => {
    const hash = demo.transactions.deployments.child;
    const { blockNumber } = await chain.publicClient.getTransactionReceipt({ hash });
    await waitFor(() => indexedThrough(explorer, blockNumber), 'the child deployment traced');
    const visited = await visit(`#/tx/${hash}`);
    // Caller.deployChild() created the child with the 1,000 Wei it was sent.
    await expect(rowsOf(visited.page, 'Calls inside this transaction')).resolves.toEqual([
      ['create', shorten(demo.contracts.caller.toLowerCase(), 6), shorten(demo.contracts.child.toLowerCase(), 6), formatEth('1000'), 'Success'],
    ]);
    await leave(visited, 'transaction-internal');
  });

  it('searching a block number opens that block with its transactions and its labelled miner', async () => {
    const visited = await visit();
    const { page } = visited;
    const { blockNumber: number } = await chain.publicClient.getTransactionReceipt({ hash: demo.transactions.transfer });
    await search(page, String(number));
    await page.waitForURL(`**#/block/${number}`);
    await page.getByRole('heading', { name: `Block #${number}`, level: 1 }).waitFor();
    const block = await chain.publicClient.getBlock({ blockNumber: number });
    await expect(page.locator('dl[aria-label="Block details"]').innerText()).resolves.toContain(block.hash);
    await expect(detail(page, 'Block details', 'Miner')).resolves.toBe(`${LABELS.miner} ${block.miner.toLowerCase()}`);
    const transactions = await rowsOf(page, `Transactions of block ${number}`);
    expect(transactions).toHaveLength(block.transactions.length);
    await expect(linksOf(page, `Transactions of block ${number}`, '#/tx/')).resolves.toEqual(block.transactions.map((hash) => `#/tx/${hash}`));
    // The transfer's sender, by its label.
    const transfer = block.transactions.indexOf(demo.transactions.transfer);
    expect(transactions[transfer]![2]).toBe(LABELS.deployer);
    await leave(visited, 'block');
  });

  it('searching an address opens it with its balance, transactions, token transfers and tokens held', async () => {
    const visited = await visit();
    const { page } = visited;
    const address = demo.accounts[3]!.toLowerCase();
    await search(page, demo.accounts[3]!);
    await page.waitForURL(`**#/address/${address}`);
    await page.getByRole('heading', { name: 'Address', level: 1 }).waitFor();
    // The balance the chain gives at the block the page says it was read at.
    const at = BigInt(await detail(page, 'Address overview', 'At block'));
    const balance = await chain.publicClient.getBalance({ address: demo.accounts[3]!, blockNumber: at });
    await expect(detail(page, 'Address overview', 'Balance')).resolves.toBe(formatEth(balance.toString(), 18));
    await page.locator('caption', { hasText: 'Transactions of this address' }).waitFor();
    await page.getByRole('button', { name: 'Token transfers' }).click();
    const transfers = page.locator('table', { has: page.locator('caption', { hasText: 'Token transfers of this address' }) });
    await transfers.waitFor();
    await expect(transfers.locator('tbody a[href^="#/token/"]').count()).resolves.toBeGreaterThan(0);
    await page.getByRole('button', { name: 'Tokens held' }).click();
    const held = page.locator('table', { has: page.locator('caption', { hasText: 'Tokens this address holds' }) });
    await held.waitFor();
    await expect(held.innerText()).resolves.toContain('Demo Token');
    await leave(visited, 'address');
  });

  it("an address's transactions go on past a page: Next shows the older ones", async () => {
    const visited = await visit(`#/address/${own.address.toLowerCase()}`);
    const { page } = visited;
    const newestFirst = (hashes: Hash[]) => hashes.map((hash) => `#/tx/${hash}`).reverse();
    await expect(linksOf(page, 'Transactions of this address, newest first, page 1', '#/tx/')).resolves.toEqual(newestFirst(ownSent.slice(-PAGE_SIZE)));
    // Every row a table of page 2 ever listed, to see it never lists page 1's, not even before page 2 is read.
    await page.evaluate(
      "window.pageTwoRows = new Set(); new MutationObserver(() => { const table = [...document.querySelectorAll('table')].find((candidate) => candidate.caption?.textContent.endsWith('page 2')); for (const link of table?.querySelectorAll('tbody a[href^=\"#/tx/\"]') ?? []) window.pageTwoRows.add(link.getAttribute('href')); }).observe(document.querySelector('main'), { subtree: true, childList: true, characterData: true })",
    );
    await page.getByRole('navigation', { name: 'Pages of transactions' }).getByRole('button', { name: 'Next' }).click();
    const pageTwo = newestFirst(ownSent.slice(0, -PAGE_SIZE));
    await expect(linksOf(page, 'Transactions of this address, newest first, page 2', '#/tx/')).resolves.toEqual(pageTwo);
    await expect(page.evaluate('[...window.pageTwoRows]')).resolves.toEqual(pageTwo);
    await leave(visited, 'address-page-2');
  });

  it('searching a token symbol opens the token with its supply, price, holders (labelled) and transfers', async () => {
    const visited = await visit();
    const { page } = visited;
    const token = demo.contracts.token.toLowerCase();
    const record = page.waitForResponse((response) => new URL(response.url()).pathname.endsWith(`/api/v1/token/${token}`));
    await search(page, 'DEMO');
    await page.waitForURL(`**#/token/${token}`);
    await page.getByRole('heading', { name: 'Demo Token (DEMO)', level: 1 }).waitFor();
    const details = await page.locator('dl[aria-label="Token details"]').innerText();
    expect(details).toContain('ERC-20');
    // The price and market cap of the record the API gave the page (DEMO's price moves with the demo's swaps).
    const { result } = (await (await record).json()) as { result: TokenRecord };
    expect(result.priceUSD).not.toBeNull();
    await expect(detail(page, 'Token details', 'Price')).resolves.toBe(formatUsd(result.priceUSD!));
    await expect(detail(page, 'Token details', 'Market cap')).resolves.toBe(formatUsd(result.marketCap!));
    await page.locator('caption', { hasText: 'Transfers of DEMO' }).waitFor();
    await page.getByRole('button', { name: 'Holders' }).click();
    const holders = await rowsOf(page, 'Holders of DEMO');
    expect(holders.length).toBeGreaterThan(1);
    // The deployer holds the most DEMO, shown by its label.
    expect(holders[0]!.slice(0, 2)).toEqual(['1', LABELS.deployer]);
    await leave(visited, 'token');
  });

  it("a token's address has several matches, listed to choose from", async () => {
    const visited = await visit();
    const { page } = visited;
    await search(page, demo.contracts.token);
    const matches = page.getByRole('list', { name: 'Search matches' });
    await matches.waitFor();
    await expect(matches.locator(`a[href="#/token/${demo.contracts.token.toLowerCase()}"]`).count()).resolves.toBe(1);
    await expect(matches.locator(`a[href="#/address/${demo.contracts.token.toLowerCase()}"]`).count()).resolves.toBe(1);
    await leave(visited, 'search-several');
  });

  it("a contract's page shows its verified source and ABI, and says when a contract is not verified", async () => {
    const visited = await visit(`#/address/${demo.contracts.emitter.toLowerCase()}`);
    const { page } = visited;
    await page.getByRole('heading', { name: 'Contract EventEmitter', level: 1 }).waitFor();
    // Its public label beside its address, and its creator's.
    await expect(page.locator('.title .sub').innerText()).resolves.toBe(`${LABELS.emitter} ${demo.contracts.emitter.toLowerCase()}`);
    await expect(detail(page, 'Address overview', 'Creator')).resolves.toBe(`${LABELS.deployer} ${demo.accounts[0]!.toLowerCase()}`);
    // A plain account's page shows its own label too (its balance record carries it).
    const creator = page.locator('dl[aria-label="Address overview"]').getByRole('link', { name: `${LABELS.deployer} (${demo.accounts[0]!.toLowerCase()})` });
    await creator.click();
    await page.getByRole('heading', { name: 'Address', level: 1, exact: true }).waitFor();
    await expect(page.locator('.title .sub').innerText()).resolves.toBe(`${LABELS.deployer} ${demo.accounts[0]!.toLowerCase()}`);
    await page.goBack();
    await page.getByRole('heading', { name: 'Contract EventEmitter', level: 1 }).waitFor();
    await page.getByRole('button', { name: 'Contract', exact: true }).click();
    await expect(page.locator('dl[aria-label="Contract details"]').innerText()).resolves.toMatch(/Verified\s+Yes/);
    const abi = page.locator('table', { has: page.locator('caption', { hasText: 'verified ABI' }) });
    await abi.waitFor();
    await expect(abi.innerText()).resolves.toContain('ping(');
    await expect(page.getByLabel('Source code of EventEmitter').innerText()).resolves.toContain('contract EventEmitter');
    await shoot(page, 'contract');
    await page.goto(`${server().url}#/address/${demo.contracts.reverter.toLowerCase()}`);
    await page.getByRole('heading', { name: 'Contract', level: 1, exact: true }).waitFor();
    await page.getByRole('button', { name: 'Contract', exact: true }).click();
    await page.getByText('source code is not verified', { exact: false }).waitFor();
    await leave(visited, 'contract-not-verified');
  });

  it('validators and consensus list the block producers', async () => {
    const visited = await visit('#/validators');
    const { page } = visited;
    await page.locator('dl[aria-label="Consensus"]').waitFor();
    const producers = page.locator('table', { has: page.locator('caption', { hasText: 'Block producers' }) });
    await producers.waitFor();
    const miner = (await chain.publicClient.getBlock()).miner.toLowerCase();
    await expect(producers.innerText()).resolves.toContain(miner);
    await leave(visited, 'validators');
  });

  it('says "not found" for an unknown transaction or page, "bad query" for a malformed one, and "nothing found" for a search without matches', async () => {
    const visited = await visit(`#/tx/0x${'12'.repeat(32)}`);
    const { page } = visited;
    await page.getByTestId('not-found').waitFor();
    await page.goto(`${server().url}#/block/12abc`);
    await page.getByTestId('bad-query').waitFor();
    // Each of these pages straight after the other still names itself in the title and takes the focus.
    for (const [fragment, title] of [['#/nowhere', 'Page not found'], ['#/block/12abc', 'Bad query']] as const) {
      await page.locator('#search-input').focus();
      await page.goto(`${server().url}${fragment}`);
      await page.getByRole('heading', { name: title, level: 1 }).waitFor();
      await expect(page.title()).resolves.toBe(`${title} · ChainLens explorer`);
      await expect(page.evaluate('document.activeElement?.tagName')).resolves.toBe('H1');
    }
    await search(page, 'qqqq-no-such-thing');
    await page.getByTestId('no-match').waitFor();
    await leave(visited, 'not-found', [NOT_FOUND_LOG]);
  });

  it('a server without search says so and offers what the query looks like', async () => {
    const visited = await visit();
    const { page } = visited;
    await page.route('**/api/v1/search?*', (route) =>
      route.fulfill({ status: 404, contentType: 'application/json', body: JSON.stringify({ status: '0', message: 'Error! Endpoint not found', result: null }) }),
    );
    await search(page, demo.accounts[2]!);
    await page.getByTestId('search-unavailable').waitFor();
    await page.getByRole('link', { name: `Open Address ${demo.accounts[2]!}` }).click();
    await page.waitForURL(`**#/address/${demo.accounts[2]!.toLowerCase()}`);
    await page.locator('dl[aria-label="Address overview"]').waitFor();
    await leave(visited, 'search-unavailable', [NOT_FOUND_LOG]);
  });

  it("an unverified ERC-20's transfer shows its input decoded and the balances it changed", async () => {
    const hash = demo.transactions.transfer;
    const visited = await visit(`#/tx/${hash}`);
    const { page } = visited;
    const input = page.getByTestId('decoded-input');
    await expect(input.locator('p').innerText()).resolves.toBe('transfer transfer(address,uint256) (decoded from the table of common functions)');
    await expect(rowsOf(page, 'Arguments of transfer')).resolves.toEqual([
      ['to', 'address', demo.accounts[1]!.toLowerCase()],
      ['value', 'uint256', parseEther('1000').toString()],
    ]);
    const deployer = demo.accounts[0]!.toLowerCase();
    await expect(rowsOf(page, 'Token balance changes')).resolves.toEqual([
      [`${LABELS.deployer} ${deployer}`, 'DEMO', '-1,000 DEMO'],
      [demo.accounts[1]!.toLowerCase(), 'DEMO', '+1,000 DEMO'],
    ]);
    // The sender paid the fee; the miner got the priority fee over the block's base fee.
    const receipt = await chain.publicClient.getTransactionReceipt({ hash });
    const { baseFeePerGas, miner } = await chain.publicClient.getBlock({ blockNumber: receipt.blockNumber });
    const tip = receipt.gasUsed * (receipt.effectiveGasPrice - baseFeePerGas!);
    await expect(rowsOf(page, 'Ether balance changes')).resolves.toEqual([
      [`${LABELS.deployer} ${deployer}`, formatEth((-(receipt.gasUsed * receipt.effectiveGasPrice)).toString(), 18)],
      ...(tip === 0n ? [] : [[`${LABELS.miner} ${miner.toLowerCase()}`, `+${formatEth(tip.toString(), 18)}`]]),
    ]);
    await leave(visited, 'transaction-decoded');
  });

  it("a verified contract's custom error is decoded in the revert reason and the call tree", async () => {
    const visited = await visit(`#/tx/${explained.customError}`);
    const { page } = visited;
    await expect(detail(page, 'Transaction details', 'Revert reason')).resolves.toBe('Nope(code: 42)');
    await expect(page.getByTestId('decoded-input').locator('p').innerText()).resolves.toBe('failCustom failCustom() (decoded from the verified ABI)');
    const top = page.getByRole('list', { name: 'Call tree' }).locator('.frame').first();
    await expect(top.innerText()).resolves.toMatch(/^CALL .* \(Reverter\) · failCustom\(\)\s*Nope\(code: 42\)$/);
    await leave(visited, 'transaction-custom-error');
  });

  it('the call tree shows each call of a transaction, decoded where a verified ABI knows it, with what it returned', async () => {
    const visited = await visit(`#/tx/${demo.transactions.nestedPing}`);
    const { page } = visited;
    const tree = page.getByRole('list', { name: 'Call tree' });
    const frames = tree.locator('.frame');
    await frames.nth(1).waitFor();
    await expect(frames.count()).resolves.toBe(2);
    // Caller is not verified and callPing is no common function; the emitter is verified.
    await expect(frames.nth(0).innerText()).resolves.toMatch(/^CALL .* → .* · selector 0x[0-9a-f]{8} \(not decoded\)$/);
    const { result } = ((await (await fetch(`${server().api}api/v1/transaction/${demo.transactions.nestedPing}/calls`)).json()) as { result: { calls: { result: { name: string; value: string }[] }[] } });
    const returned = result.calls[0]!.result[0]!;
    await expect(frames.nth(1).innerText()).resolves.toBe(
      `CALL ${shorten(demo.contracts.caller.toLowerCase(), 6)} → ${LABELS.emitter} (EventEmitter) · ping(note: nested hello) → returns(${returned.name}: ${returned.value})`,
    );
    // The child is nested in its caller's item.
    await expect(tree.locator('li li .frame').count()).resolves.toBe(1);
    await leave(visited, 'transaction-call-tree');
  });

  it('an EIP-7702 transaction lists its authorization, and the delegated account is marked as such', async () => {
    const visited = await visit(`#/tx/${explained.delegation}`);
    const { page } = visited;
    const account = explained.delegator.address.toLowerCase();
    await expect(detail(page, 'Transaction type', 'Type')).resolves.toBe('4 · set code (EIP-7702)');
    // The account called itself and ran the emitter's code: the call decodes by the emitter's verified ABI.
    await expect(page.getByTestId('decoded-input').locator('p').innerText()).resolves.toBe('ping ping(string) (decoded from the verified ABI)');
    await expect(rowsOf(page, 'Authorizations')).resolves.toEqual([[account, `${LABELS.emitter} ${demo.contracts.emitter.toLowerCase()}`, String(chain.chain.id), expect.stringMatching(/^\d+$/)]]);
    await shoot(page, 'transaction-7702');
    await page.locator('table', { has: page.locator('caption', { hasText: 'Authorizations' }) }).getByRole('link', { name: account }).click();
    await page.getByRole('heading', { name: 'Address', level: 1, exact: true }).waitFor();
    await expect(detail(page, 'Address overview', 'Delegated to')).resolves.toBe(`${LABELS.emitter} ${demo.contracts.emitter.toLowerCase()} EIP-7702 delegated account`);
    await leave(visited, 'address-delegated');
  });

  it('can be used with the keyboard alone: the search box and every link are reached with Tab', async () => {
    const visited = await visit();
    const { page } = visited;
    await page.locator('caption', { hasText: 'newest indexed blocks' }).waitFor();
    const focused = () =>
      page.evaluate<{ id: string; href: string; inMain: boolean }>(
        "({ id: document.activeElement?.id ?? '', href: document.activeElement?.getAttribute('href') ?? '', inMain: document.activeElement?.closest('main') != null })",
      );
    let reachedSearch = false;
    let block: string | null = null;
    for (let i = 0; i < 40 && block === null; i++) {
      await page.keyboard.press('Tab');
      const now = await focused();
      if (now.id === 'search-input') reachedSearch = true;
      if (now.inMain && now.href.startsWith('#/block/')) block = now.href.slice('#/block/'.length);
    }
    expect(reachedSearch).toBe(true);
    expect(block).not.toBeNull();
    await page.keyboard.press('Enter');
    await page.waitForURL(`**#/block/${block}`);
    // The new page's heading takes the focus, so reading starts there.
    await page.getByRole('heading', { name: `Block #${block}`, level: 1 }).waitFor();
    await expect(page.evaluate('document.activeElement?.tagName')).resolves.toBe('H1');
    await leave(visited, 'keyboard');
  });
});
