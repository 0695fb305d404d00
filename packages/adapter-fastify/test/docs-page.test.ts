import type { AddressInfo } from 'node:net';
import { createExplorer, handleClientError, type Explorer } from '@chainlens/core';
import { createTestChain, type TestChain } from '@chainlens/devchain';
import { memoryStorage } from '@chainlens/storage-memory';
import Fastify, { type FastifyInstance } from 'fastify';
import { pino } from 'pino';
import { chromium, type Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chainlens } from '../src/index.js';

/** Debian's chromium; CI installs it (.ci/run). */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

describe('GET /docs and GET /graphql in a browser', () => {
  let chain: TestChain;
  let explorer: Explorer;
  let app: FastifyInstance;
  let browser: Browser;
  let url: string;

  beforeAll(async () => {
    chain = await createTestChain();
    explorer = await createExplorer({ rpcUrl: chain.rpcUrl, storage: memoryStorage(), logger: pino({ level: 'silent' }) });
    app = Fastify({ clientErrorHandler: handleClientError });
    // Mounted under a prefix: the pages, their assets, the document and the calls they make all follow it.
    await app.register(chainlens, { explorer, prefix: '/explorer' });
    await app.listen({ host: '127.0.0.1', port: 0 });
    url = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}/explorer`;
    await explorer.start();
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  });
  afterAll(async () => {
    await browser?.close();
    await app?.close();
    await explorer?.close();
    await chain?.close();
  });

  it('sends a browser from the mount point to its slash and from /docs/ and /graphql/ to the pages; API clients keep their 404', async () => {
    const html = { accept: 'text/html' };
    const answer = async (path: string, headers: Record<string, string> = html) => {
      const response = await fetch(`${url}${path}`, { headers, redirect: 'manual' });
      return [response.status, response.headers.get('location')];
    };
    expect(await answer('')).toEqual([301, '/explorer/']);
    expect(await answer('/docs/?x=1')).toEqual([301, '../docs?x=1']);
    expect(await answer('/graphql/')).toEqual([301, '../graphql']);
    expect(await answer('/graphql/', {})).toEqual([404, null]);
    const page = await browser.newPage();
    await page.goto(`${url}/docs/`);
    await page.getByText('ChainLens API', { exact: false }).first().waitFor();
    expect(page.url()).toBe(`${url}/docs`);
    await page.close();
  });

  it('lists the routes from the OpenAPI document and a "try it" call of GET /api/v1/health succeeds', async () => {
    const page = await browser.newPage();
    const outside: string[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith(url)) outside.push(request.url());
    });
    await page.goto(`${url}/docs`);
    await page.getByText('ChainLens API', { exact: false }).first().waitFor();
    for (const path of ['/api/v1/health', '/api/v1/block/getblock', '/api/v1/auth/login', '/metrics']) {
      await expect(page.locator('.opblock-summary-path', { hasText: path }).first().isVisible()).resolves.toBe(true);
    }

    const health = page.locator('.opblock').filter({ has: page.locator('.opblock-summary-path', { hasText: /^\/api\/v1\/health$/ }) });
    await health.locator('.opblock-summary').click();
    const answered = page.waitForResponse((response) => response.url() === `${url}/api/v1/health`);
    await health.getByRole('button', { name: 'Execute' }).click();
    const response = await answered;
    expect(response.status()).toBe(200);
    await health.locator('.live-responses-table .response-col_status', { hasText: '200' }).first().waitFor();
    await expect(health.locator('.live-responses-table').innerText()).resolves.toContain('"chainId": 31337');
    // Self-hosted: nothing was fetched from anywhere else.
    expect(outside).toEqual([]);
    await page.close();
  });

  it('GraphiQL renders from its own assets and runs a query against the endpoint it came from', async () => {
    const page = await browser.newPage();
    const outside: string[] = [];
    const failures: string[] = [];
    page.on('request', (request) => {
      if (!request.url().startsWith(url)) outside.push(request.url());
    });
    page.on('pageerror', (error) => failures.push(error.message));
    await page.goto(`${url}/graphql`);
    await page.locator('.graphiql-container').waitFor();
    const answered = page.waitForResponse((response) => response.url() === `${url}/graphql` && response.request().method() === 'POST' && (response.request().postData() ?? '').includes('latestBlock'));
    await page.locator('.graphiql-execute-button').click();
    expect((await answered).status()).toBe(200);
    const result = page.locator('.result-window');
    await result.getByText('"latestBlock"').waitFor();
    await expect(result.innerText()).resolves.toMatch(/"number": "\d+"/);
    expect(failures).toEqual([]);
    expect(outside).toEqual([]);
    await page.close();
  });
});
