import { asText, createExplorer } from '@chainlens/core';
import { createTestChain, type TestChain } from '@chainlens/devchain';
import { waitFor } from '@chainlens/testing';
import { pino } from 'pino';
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postgresStorage } from '../src/index.js';
import { testDatabaseUrl, testSchemas, withClient } from './database.js';

const schemas = testSchemas();

describe('storage failures reach clients as envelopes', () => {
  let chain: TestChain;
  beforeAll(async () => {
    chain = await createTestChain();
  });
  afterAll(() => chain?.close());

  it('a failing query answers 500 Internal server error with nothing leaked, logs the cause, and the process goes on', async () => {
    const schema = schemas.next();
    const lines: string[] = [];
    const logger = pino({ level: 'error' }, new Writable({ write: (chunk, _encoding, done) => (lines.push(String(chunk)), done()) }));
    const explorer = await createExplorer({ rpcUrl: chain.rpcUrl, storage: postgresStorage({ connectionString: await testDatabaseUrl(), schema }), logger });
    try {
      const hash = await chain.walletClient.sendTransaction({ to: chain.accounts[1]!.address, value: 1n });
      await explorer.start();
      await waitFor(async () => (await explorer.storage.getTransaction(hash)) !== null, 'indexing');
      const get = async (url: string) => explorer.kernel.handle({ method: 'GET', url, headers: {}, ip: '127.0.0.1' });
      // The logs route is never answered from the response cache: each request reads storage.
      expect((await get(`/api/v1/transaction/${hash}/logs`)).status).toBe(200);

      await withClient((client) => client.query(`DROP TABLE ${schema}.transactions CASCADE`));
      const broken = await get(`/api/v1/transaction/${hash}/logs`);
      expect(broken.status).toBe(500);
      expect(JSON.parse(asText(broken).body)).toEqual({ status: '0', message: 'Error! Internal server error', result: null });
      expect(broken.body).not.toMatch(/relation|transactions|postgres/i);
      expect(lines.some((line) => line.includes('does not exist'))).toBe(true);
      expect((await get('/api/v1/blockchain/state-root/latest')).status).toBe(200);
    } finally {
      await explorer.close();
    }
  });
});
