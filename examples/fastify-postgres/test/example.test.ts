import { once } from 'node:events';
import { createTestChain, type TestChain } from '@chainlens/devchain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startExample, testDatabaseUrl, testSchemas, withClient } from '@chainlens/testing';

const schemas = testSchemas();

describe('examples/fastify-postgres', () => {
  let chain: TestChain;
  beforeAll(async () => {
    chain = await createTestChain();
  });
  afterAll(() => chain.close());

  it('stores the chain in Postgres, serves it through Fastify and stops on SIGTERM', async () => {
    const schema = schemas.next();
    const example = startExample(new URL('../src/main.ts', import.meta.url), {
      EXPLORER_RPC_URL: chain.rpcUrl,
      DATABASE_URL: await testDatabaseUrl(),
      EXPLORER_DB_SCHEMA: schema,
      PORT: '0',
    });
    try {
      const base = await example.listening(/Explorer at (http:\/\/127\.0\.0\.1:\d+)/);
      const hash = await chain.walletClient.sendTransaction({ to: chain.accounts[2]!.address, value: 7n });
      expect(await example.indexed(`${base}/api/v1/transaction/${hash}`)).toMatchObject({ hash, value: '7' });
      const stored = await withClient((client) => client.query(`SELECT count(*)::int AS n FROM ${schema}.transactions`));
      expect(stored.rows[0].n).toBeGreaterThan(0);
      example.child.kill('SIGTERM');
      const [code] = await once(example.child, 'exit');
      expect(code).toBe(0);
    } finally {
      example.stop();
    }
  });

  it('refuses to start without DATABASE_URL, saying what to set', async () => {
    const example = startExample(new URL('../src/main.ts', import.meta.url), { EXPLORER_RPC_URL: chain.rpcUrl, DATABASE_URL: '' });
    const [code] = await once(example.child, 'exit');
    expect(code).toBe(1);
    expect(example.output()).toContain('DATABASE_URL is required');
  });
});
