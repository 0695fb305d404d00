import { once } from 'node:events';
import { createTestChain, type TestChain } from '@chainlens/devchain';
import { startExample } from '@chainlens/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

describe('examples/express-memory', () => {
  let chain: TestChain;
  beforeAll(async () => {
    chain = await createTestChain();
  });
  afterAll(() => chain.close());

  it('serves the explorer and its docs under /explorer beside the host app, indexes the chain and stops on SIGTERM', async () => {
    const example = startExample(new URL('../src/main.ts', import.meta.url), { EXPLORER_RPC_URL: chain.rpcUrl, PORT: '0' });
    try {
      const base = await example.listening(/Explorer at (http:\/\/127\.0\.0\.1:\d+)\/explorer/);
      const home = await fetch(base);
      expect(await home.text()).toContain('My app');
      expect(home.headers.get('keep-alive')).toBe('timeout=72');
      const hash = await chain.walletClient.sendTransaction({ to: chain.accounts[1]!.address, value: 5n });
      const transaction = await example.indexed(`${base}/explorer/api/v1/transaction/${hash}`);
      expect(transaction).toMatchObject({ hash, value: '5' });
      const docs = await fetch(`${base}/explorer/docs`);
      expect(docs.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(await docs.text()).toContain('docs/swagger-ui-bundle.js');
      expect(((await (await fetch(`${base}/explorer/api/v1/openapi.json`)).json()) as { openapi: string }).openapi).toBe('3.1.0');
      // The mount point goes to its slash, a browser at /docs/ to /docs; an API client keeps its 404.
      const html = { accept: 'text/html' };
      expect(await redirected(`${base}/explorer?x=1`, html)).toEqual([301, '/explorer/?x=1']);
      expect(await redirected(`${base}/explorer/docs/`, html)).toEqual([301, '../docs']);
      expect((await fetch(`${base}/explorer/docs/`)).status).toBe(404);
      example.child.kill('SIGTERM');
      const [code] = await once(example.child, 'exit');
      expect(code).toBe(0);
    } finally {
      example.stop();
    }
  });
});

/** The status and location of `url`'s answer, redirects not followed. */
async function redirected(url: string, headers: Record<string, string>): Promise<[number, string | null]> {
  const response = await fetch(url, { headers, redirect: 'manual' });
  return [response.status, response.headers.get('location')];
}
