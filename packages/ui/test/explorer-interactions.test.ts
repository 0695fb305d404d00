import { mkdir } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chainlens } from '@chainlens/adapter-fastify';
import { createExplorer, handleClientError, type Explorer } from '@chainlens/core';
import { createTestChain, deployDemo, type DemoDeployment, type TestChain } from '@chainlens/devchain';
import { indexedThrough, waitFor } from '@chainlens/testing';
import { memoryStorage } from '@chainlens/storage-memory';
import Fastify, { type FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { chromium, type Browser, type Page } from 'playwright-core';
import { erc20Abi, keccak256, stringToHex, type Address } from 'viem';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { rowsOf, verifyEmitter } from './page-helpers.js';
import { shorten } from '../src/format.js';

/** Debian's chromium; CI installs it (.ci/run). */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** Where the screenshots go, to look at what a person sees. */
const SHOTS = join(tmpdir(), 'chainlens-ui-screenshots');
/** axe-core's browser build, injected into each page it checks. */
const AXE = createRequire(import.meta.url).resolve('axe-core/axe.min.js');
const OWNER_OF_ABI = [{ type: 'function', name: 'ownerOf', stateMutability: 'view', inputs: [{ name: 'id', type: 'uint256' }], outputs: [{ name: '', type: 'address' }] }] as const;
const BALANCE_OF_1155_ABI = [
  { type: 'function', name: 'balanceOf', stateMutability: 'view', inputs: [{ name: 'account', type: 'address' }, { name: 'id', type: 'uint256' }], outputs: [{ name: '', type: 'uint256' }] },
] as const;
const URI_1155_ABI = [{ type: 'function', name: 'uri', stateMutability: 'view', inputs: [{ name: 'id', type: 'uint256' }], outputs: [{ name: '', type: 'string' }] }] as const;
const PING_ABI = [{ type: 'function', name: 'ping', stateMutability: 'nonpayable', inputs: [{ name: 'note', type: 'string' }], outputs: [{ name: 'n', type: 'uint256' }] }] as const;
const EMITTER_ABI = [
  { type: 'function', name: 'pings', stateMutability: 'view', inputs: [], outputs: [{ name: '', type: 'uint256' }] },
] as const;

let chain: TestChain;
let demo: DemoDeployment;
let explorer: Explorer;
let app: FastifyInstance;
let url: string;
let browser: Browser;

// One chain with the demo's contracts (no ongoing activity: the values read stay put), one explorer served by Fastify, one browser.
beforeAll(async () => {
  chain = await createTestChain();
  demo = await deployDemo({ rpcUrl: chain.rpcUrl });
  explorer = await createExplorer({
    rpcUrl: chain.rpcUrl,
    storage: memoryStorage(),
    logger: pino({ level: 'silent' }),
    indexer: { pollIntervalMs: 50 },
    ui: { path: '/' },
    rateLimits: { anonymous: { perMinute: 100_000, perDay: 1_000_000 } },
  });
  app = Fastify({ clientErrorHandler: handleClientError });
  await app.register(chainlens, { explorer });
  await app.listen({ host: '127.0.0.1', port: 0 });
  url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/`;
  await explorer.start();
  // A standing approval the tests leave alone (account 2 lets account 3 spend 5 DEMO), for the approvals tab's checks.
  const approval = await chain.walletClients[2]!.writeContract({ address: demo.contracts.token, abi: erc20Abi, functionName: 'approve', args: [demo.accounts[3]!, 5n] });
  const approved = (await chain.publicClient.waitForTransactionReceipt({ hash: approval })).blockNumber;
  await waitFor(async () => ((await explorer.storage.getCursor())?.number ?? -1n) >= approved, 'the demo indexed');
  await verifyEmitter(explorer, demo.contracts.emitter);
  browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  await mkdir(SHOTS, { recursive: true });
});

afterAll(async () => {
  await browser?.close();
  await explorer?.close();
  await app?.close();
  await chain?.close();
});

const open: Page[] = [];
/** Requests the pages made to anywhere but the server: none, every asset is local. */
const outside: string[] = [];
afterEach(async () => {
  for (const page of open.splice(0)) if (!page.isClosed()) await page.close();
  expect(outside.splice(0)).toEqual([]);
});

/**
 * A page at `fragment`. With `wallet`, the page has an EIP-1193 provider (`window.ethereum`) backed
 * by anvil's unlocked dev account `wallet`: it shares that account and forwards every other request
 * (eth_sendTransaction, eth_chainId, …) to anvil, as a browser wallet would to its node.
 */
async function visit(fragment: string, options: { wallet?: Address; dark?: boolean } = {}): Promise<Page> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 }, colorScheme: options.dark ? 'dark' : 'light' });
  open.push(page);
  page.on('request', (request) => {
    if (!request.url().startsWith(url)) outside.push(request.url());
  });
  if (options.wallet) {
    await page.exposeFunction('anvilRequest', async (method: string, params: unknown[]) => {
      const answer = (await (await fetch(chain.rpcUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }) })).json()) as { result?: unknown; error?: { message: string } };
      if (answer.error) throw new Error(answer.error.message);
      return answer.result;
    });
    // Shares the account once asked to (eth_requestAccounts), as a wallet does after the visitor agrees.
    await page.addInitScript(`{
      let shared = [];
      window.ethereum = {
        request: async ({ method, params }) => {
          if (method === 'eth_requestAccounts') shared = [${JSON.stringify(options.wallet)}];
          if (method === 'eth_accounts' || method === 'eth_requestAccounts') return shared;
          return window.anvilRequest(method, params ?? []);
        },
      };
    }`);
  }
  await page.goto(`${url}${fragment}`);
  return page;
}

/** An address as a table shows it (lowercase, shortened). */
function shortened(address: string): string {
  return shorten(address.toLowerCase(), 6);
}

/** The value a function's answer gives its first output. */
function outputOf(page: Page, fn: string): Promise<string> {
  return page.locator(`dl[aria-label="${fn} returned"] dd`).first().innerText();
}

/** Waits until the page has nothing left loading. */
async function settled(page: Page): Promise<void> {
  await page.locator('h1').first().waitFor();
  await expect.poll(() => page.locator('p.loading, [role=status]:has-text("Loading")').count(), { timeout: 20_000 }).toBe(0);
}

/** axe's serious and critical violations on the page as shown now, as `rule: targets`. */
async function axeViolations(page: Page): Promise<string[]> {
  // Injected once per document: the walk below shows every page in one.
  if (!(await page.evaluate<boolean>("typeof axe === 'object'"))) await page.addScriptTag({ path: AXE });
  const violations = await page.evaluate<{ id: string; impact: string; nodes: { target: string[] }[] }[]>("axe.run(document, { resultTypes: ['violations'] }).then((result) => result.violations)");
  return violations.filter((one) => one.impact === 'serious' || one.impact === 'critical').map((one) => `${one.id}: ${one.nodes.map((node) => node.target.join(' ')).join(', ')}`);
}

describe('the explorer page acting on the chain', () => {
  it("calls a verified contract's view functions through the explorer's JSON-RPC and shows their decoded values, refusing malformed inputs", async () => {
    const page = await visit(`#/address/${demo.contracts.emitter}`);
    await page.getByRole('button', { name: 'Read contract' }).click();
    const pings = await chain.publicClient.readContract({ address: demo.contracts.emitter, abi: EMITTER_ABI, functionName: 'pings' });
    await expect.poll(() => outputOf(page, 'pings')).toBe(pings.toString());
    const data = page.getByRole('form', { name: 'data', exact: true });
    await data.getByLabel('(bytes32)').fill('0x1234');
    await data.getByRole('button', { name: 'Query' }).click();
    await data.getByText('bytes32 takes 0x and exactly 64 hex digits').waitFor();
    await data.getByLabel('(bytes32)').fill(keccak256(stringToHex('greeting')));
    await data.getByRole('button', { name: 'Query' }).click();
    await expect.poll(() => outputOf(page, 'data')).toBe(stringToHex('hello'));
  });

  it("reads a proxy through its implementation's verified ABI, at the proxy's own address", async () => {
    // An EIP-1167 clone of the verified emitter, pinged once: its own storage, not the emitter's.
    const wallet = chain.walletClients[5]!;
    const creation = `0x3d602d80600a3d3981f3363d3d373d3d3d363d73${demo.contracts.emitter.slice(2).toLowerCase()}5af43d82803e903d91602b57fd5bf3` as const;
    const deployed = await chain.publicClient.waitForTransactionReceipt({ hash: await wallet.sendTransaction({ data: creation }) });
    const clone = deployed.contractAddress!;
    const pinged = await chain.publicClient.waitForTransactionReceipt({ hash: await wallet.writeContract({ address: clone, abi: PING_ABI, functionName: 'ping', args: ['to the clone'] }) });
    await waitFor(() => indexedThrough(explorer, pinged.blockNumber), 'the clone indexed');
    const page = await visit(`#/address/${clone.toLowerCase()}`);
    await page.getByRole('button', { name: 'Read contract' }).click();
    await page.getByText('A proxy: used through the ABI of its implementation').waitFor();
    const pingsOf = (address: Address) => chain.publicClient.readContract({ address, abi: EMITTER_ABI, functionName: 'pings' });
    const [own, emitter] = [await pingsOf(clone), await pingsOf(demo.contracts.emitter)];
    expect(own).toBe(1n);
    expect(emitter).not.toBe(own);
    await expect.poll(() => outputOf(page, 'pings')).toBe(own.toString());
  });

  it('sends a write from the wallet and links to the mined transaction', async () => {
    const sender = demo.accounts[4]!;
    const page = await visit(`#/address/${demo.contracts.emitter}`, { wallet: sender });
    await page.getByRole('button', { name: 'Write contract' }).click();
    await page.getByRole('button', { name: 'Connect wallet' }).click();
    await page.getByText(`Connected as ${sender.toLowerCase()}`).waitFor();
    const before = await chain.publicClient.readContract({ address: demo.contracts.emitter, abi: EMITTER_ABI, functionName: 'pings' });
    const ping = page.getByRole('form', { name: 'ping', exact: true });
    await ping.getByLabel('note').fill('hello from the page');
    await ping.getByRole('button', { name: 'Write' }).click();
    const mined = ping.getByTestId('mined');
    await mined.getByText('Success').waitFor({ timeout: 30_000 });
    const hash = (await mined.getByRole('link').innerText()).trim();
    const tx = await chain.publicClient.getTransaction({ hash: hash as `0x${string}` });
    expect(tx.from.toLowerCase()).toBe(sender.toLowerCase());
    expect(tx.to?.toLowerCase()).toBe(demo.contracts.emitter.toLowerCase());
    await expect(chain.publicClient.readContract({ address: demo.contracts.emitter, abi: EMITTER_ABI, functionName: 'pings' })).resolves.toBe(before + 1n);
    await mined.getByRole('link').click();
    await page.getByRole('heading', { name: 'Transaction', level: 1 }).waitFor();
    expect(page.url()).toBe(`${url}#/tx/${hash}`);
  });

  it("revokes an owner's token approval through the wallet and lists it no more", async () => {
    const [owner, spender] = [demo.accounts[0]!, demo.accounts[1]!];
    expect(await chain.publicClient.readContract({ address: demo.contracts.token, abi: erc20Abi, functionName: 'allowance', args: [owner, spender] })).toBeGreaterThan(0n);
    const page = await visit(`#/address/${owner.toLowerCase()}`, { wallet: owner });
    await page.getByRole('button', { name: 'Approvals' }).click();
    await page.getByRole('button', { name: 'Connect wallet' }).click();
    const revoke = page.getByRole('button', { name: `Revoke the DEMO approval of ${spender.toLowerCase()}` });
    // The amount last approved (the demo's 100 DEMO), and what is left of it: the demo's transferFrom took 50 without an event.
    expect((await rowsOf(page, 'Token approvals this address gave')).find((cells) => cells[1] === shortened(spender))?.slice(2, 4)).toEqual(['100 DEMO', '50 DEMO']);
    await revoke.click();
    await page.getByTestId('mined').getByText('Success').waitFor({ timeout: 30_000 });
    await expect(chain.publicClient.readContract({ address: demo.contracts.token, abi: erc20Abi, functionName: 'allowance', args: [owner, spender] })).resolves.toBe(0n);
    await page.getByText('This address has no standing token approval.').or(page.locator('caption', { hasText: 'Token approvals this address gave' })).first().waitFor();
    expect(await revoke.count()).toBe(0);
  });

  it("lists an NFT collection's tokens and an address's NFTs with their holders and token URIs, as the chain has them", async () => {
    const { nft, multiToken } = demo.contracts;
    const page = await visit(`#/token/${nft.toLowerCase()}`);
    await page.getByRole('button', { name: 'Inventory' }).click();
    const rows = await rowsOf(page, 'Tokens of this collection and their holders');
    // Ids 1 to 4 were minted and 4 burned: each other id once, with the holder ownerOf names.
    expect(rows.map((cells) => cells[0])).toEqual(['1', '2', '3']);
    for (const [id, holder] of rows) {
      const owner = await chain.publicClient.readContract({ address: nft, abi: OWNER_OF_ABI, functionName: 'ownerOf', args: [BigInt(id!)] });
      expect(await page.locator('table a', { hasText: shortened(owner) }).count(), `holder of ${id}`).toBeGreaterThan(0);
      expect(holder).toBe(shortened(owner));
    }
    // Account 1's ERC-1155 ids, with the balances balanceOf gives and the URI uri(id) gives, its {id} filled in.
    await page.goto(`${url}#/address/${demo.accounts[1]!.toLowerCase()}`);
    await page.getByRole('button', { name: 'NFTs' }).click();
    const held = await rowsOf(page, 'NFTs this address holds');
    const multi = held.filter(([collection]) => collection !== 'Demo NFT');
    expect(multi.map(([, id]) => id)).toEqual(['2', '3']);
    for (const [, id, amount, metadata] of multi) {
      const balance = await chain.publicClient.readContract({ address: multiToken, abi: BALANCE_OF_1155_ABI, functionName: 'balanceOf', args: [demo.accounts[1]!, BigInt(id!)] });
      expect(amount).toBe(balance.toString());
      const uri = await chain.publicClient.readContract({ address: multiToken, abi: URI_1155_ABI, functionName: 'uri', args: [BigInt(id!)] });
      expect(metadata).toBe(uri.replace('{id}', BigInt(id!).toString(16).padStart(64, '0')));
    }
    expect(held.filter(([collection]) => collection === 'Demo NFT')).toEqual([]);
    // An ERC-20 is no collection; a malformed address is refused.
    const erc20 = await fetch(`${url}api/v1/token/${demo.contracts.token}/inventory`);
    expect([erc20.status, ((await erc20.json()) as { message: string }).message]).toEqual([404, 'Error! Token contract not found']);
    expect((await fetch(`${url}api/v1/account/nfts?address=0x12`)).status).toBe(400);
  });

  it('suggests matches as one types and opens the one picked with the keyboard', async () => {
    const page = await visit('');
    const box = page.getByRole('combobox', { name: 'Search the chain' });
    await box.fill('Demo');
    const options = page.getByRole('listbox', { name: 'Search suggestions' }).getByRole('option');
    await expect.poll(() => options.count()).toBeGreaterThan(1);
    await page.screenshot({ path: join(SHOTS, 'search-suggestions.png') });
    const texts = await options.allInnerTexts();
    const wanted = texts.findIndex((text) => text.includes('(DUSD)'));
    expect(wanted).toBeGreaterThanOrEqual(0);
    for (let i = 0; i <= wanted; i++) await box.press('ArrowDown');
    await expect.poll(() => box.getAttribute('aria-activedescendant')).toBe(`suggestion-${wanted}`);
    await expect.poll(() => options.nth(wanted).getAttribute('aria-selected')).toBe('true');
    await box.press('Enter');
    await page.getByRole('heading', { name: /Demo Dollar/, level: 1 }).waitFor();
    expect(page.url()).toBe(`${url}#/token/${demo.contracts.quoteToken.toLowerCase()}`);
    await box.press('Escape');
  });

  it('follows the system colour scheme until one is chosen, and remembers the choice', async () => {
    const page = await visit('', { dark: true });
    await expect.poll(() => page.evaluate('document.documentElement.dataset.theme')).toBe('dark');
    await page.getByLabel('Colour scheme').selectOption('light');
    await expect.poll(() => page.evaluate('document.documentElement.dataset.theme')).toBe('light');
    await page.reload();
    await expect.poll(() => page.evaluate('document.documentElement.dataset.theme')).toBe('light');
    expect(await page.getByLabel('Colour scheme').inputValue()).toBe('light');
  });
});

/** Every page, and the address tabs that show more than a table, as [name, fragment, tab to press]. */
function pages(): [string, string, string?][] {
  const { emitter, token, nft } = demo.contracts;
  const tx = demo.transactions.transfer;
  return [
    ['home', ''],
    ['blocks', '#/blocks'],
    ['transactions', '#/txs'],
    ['block', `#/block/${demo.toBlock}`],
    ['transaction', `#/tx/${tx}`],
    ['address', `#/address/${demo.accounts[0]!.toLowerCase()}`],
    ['address-internal', `#/address/${demo.contracts.caller.toLowerCase()}`, 'Internal transactions'],
    ['address-approvals', `#/address/${demo.accounts[2]!.toLowerCase()}`, 'Approvals'],
    ['contract-events', `#/address/${emitter.toLowerCase()}`, 'Events'],
    ['contract-source', `#/address/${emitter.toLowerCase()}`, 'Contract'],
    ['contract-read', `#/address/${emitter.toLowerCase()}`, 'Read contract'],
    ['contract-write', `#/address/${emitter.toLowerCase()}`, 'Write contract'],
    ['token', `#/token/${token.toLowerCase()}`],
    ['nft', `#/token/${nft.toLowerCase()}`, 'Inventory'],
    ['address-nfts', `#/address/${demo.accounts[1]!.toLowerCase()}`, 'NFTs'],
    ['validators', '#/validators'],
    ['charts', '#/charts'],
    ['search', '#/search?q=Demo'],
    ['not-found', '#/nowhere'],
    ['bad-query', '#/block/x'],
  ];
}

/**
 * Opens `fragment` in `page`, which shows the explorer already, as the page's own links do (only
 * the fragment changes), and waits until the new page's heading is in place (the old one has left
 * the document: every page is keyed by what it shows) and nothing is loading.
 */
async function navigate(page: Page, fragment: string): Promise<void> {
  const before = await page.locator('h1').first().elementHandle();
  await page.goto(`${url}${fragment}`);
  await page.waitForFunction((element) => !element.isConnected, before);
  await settled(page);
}

/** Switches the system's colour scheme and waits until the page follows it. */
async function scheme(page: Page, colorScheme: 'light' | 'dark'): Promise<void> {
  await page.emulateMedia({ colorScheme });
  await page.waitForFunction(`document.documentElement.dataset.theme === '${colorScheme}'`);
}

/** Resizes the page and waits until a frame is drawn at the new size (the charts follow it by a ResizeObserver). */
async function resize(page: Page, width: number): Promise<void> {
  await page.setViewportSize({ width, height: 900 });
  await page.evaluate('new Promise((drawn) => requestAnimationFrame(() => requestAnimationFrame(drawn)))');
}

describe('every page', () => {
  // One browser page goes through them all by their fragments, and each is checked as it shows:
  // light at 1280 px, dark at 1280 px (the system's scheme switched; the page follows it) and light
  // at 375 px. The layout does not depend on the scheme: 375 px is checked (and photographed) in light mode only.
  it('has no serious or critical axe violation in light or dark mode, fits 375 px without sideways scrolling, and is photographed in each', async () => {
    const found: string[] = [];
    const page = await visit('');
    await settled(page);
    let shown = '';
    for (const [name, fragment, tab] of pages()) {
      // The contract's tabs are one page: opened once, its tabs pressed in turn.
      if (fragment !== shown) await navigate(page, fragment);
      shown = fragment;
      if (tab) {
        await page.getByRole('button', { name: tab, exact: true }).click();
        await settled(page);
      }
      for (const mode of ['light', 'dark'] as const) {
        await scheme(page, mode);
        found.push(...(await axeViolations(page)).map((violation) => `${mode} ${name}: ${violation}`));
        await page.screenshot({ path: join(SHOTS, `${mode}-1280-${name}.png`), fullPage: true });
      }
      await scheme(page, 'light');
      await resize(page, 375);
      const wide = await page.evaluate<number>('document.documentElement.scrollWidth');
      if (wide > 375) found.push(`${name}: ${wide} px wide at 375 px`);
      await page.screenshot({ path: join(SHOTS, `light-375-${name}.png`), fullPage: true });
      await resize(page, 1280);
    }
    expect(found).toEqual([]);
  }, 600_000);
});
