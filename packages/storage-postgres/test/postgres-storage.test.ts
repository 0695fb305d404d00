import { ConfigError, type BlockBundle, type Storage } from '@chainlens/core';
import { chainTransactions, expectStoredChain, makeChain, referenceTotals, writeChain } from '@chainlens/testing';
import pg from 'pg';
import { describe, expect, it, vi } from 'vitest';
import { postgresStorage, type PostgresStorageOptions } from '../src/index.js';
import { createStorage, testDatabaseUrl, testSchemas, withClient } from './database.js';

const schemas = testSchemas();
const MAX_UINT256 = 2n ** 256n - 1n;

/** Runs `body` on a fresh, initialised storage and closes it whatever happens. */
async function withStorage(body: (storage: Storage, schema: string) => Promise<void>, options: Partial<PostgresStorageOptions> = {}) {
  const schema = schemas.next();
  const storage = await createStorage(schema, options);
  try {
    await storage.init();
    await body(storage, schema);
  } finally {
    await storage.close();
  }
}

/** The test database URL with an application_name that finds this storage's connections in pg_stat_activity. */
async function taggedUrl(tag: string): Promise<string> {
  const url = new URL(await testDatabaseUrl());
  url.searchParams.set('application_name', tag);
  return url.toString();
}

/** Holds a lock on `schema`'s chain_state row until the returned release is called. */
async function lockChainState(schema: string): Promise<() => Promise<void>> {
  const client = new pg.Client({ connectionString: await testDatabaseUrl() });
  await client.connect();
  await client.query('BEGIN');
  await client.query(`SELECT * FROM ${schema}.chain_state FOR UPDATE`);
  return async () => {
    await client.query('ROLLBACK');
    await client.end();
  };
}

/** Resolves once a backend of `tag` waits for a lock. */
function waitingOnLock(tag: string): Promise<void> {
  return vi.waitFor(
    async () => {
      const { rowCount } = await withClient((client) =>
        client.query(`SELECT 1 FROM pg_stat_activity WHERE application_name = $1 AND wait_event_type = 'Lock'`, [tag]),
      );
      expect(rowCount).toBe(1);
    },
    { timeout: 10_000, interval: 20 },
  );
}

function terminateBackends(tag: string): Promise<unknown> {
  return withClient((client) => client.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = $1', [tag]));
}

describe('postgresStorage', () => {
  describe('exact values', () => {
    it('round-trips 2^256-1 in every uint256 field, and bigint block numbers near 2^63', async () => {
      await withStorage(async (storage, schema) => {
        const [bundle] = makeChain({ blocks: 1, txPerBlock: 2, startNumber: 2n ** 63n - 2n, blockTime: 0n });
        const { block } = bundle!;
        Object.assign(block, { gasUsed: MAX_UINT256, gasLimit: MAX_UINT256, baseFeePerGas: MAX_UINT256, difficulty: MAX_UINT256 });
        for (const tx of bundle!.transactions) {
          Object.assign(tx, {
            value: MAX_UINT256,
            gas: MAX_UINT256,
            gasPrice: MAX_UINT256,
            maxFeePerGas: MAX_UINT256,
            maxPriorityFeePerGas: MAX_UINT256 - 1n,
            nonce: MAX_UINT256,
            gasUsed: MAX_UINT256,
            cumulativeGasUsed: MAX_UINT256,
            effectiveGasPrice: MAX_UINT256,
          });
        }
        await storage.writeBlock(bundle!);
        await expectStoredChain(storage, [bundle!]);
        const tx = bundle!.transactions[1]!;
        expect((await storage.getTransaction(tx.hash))!.value).toBe(MAX_UINT256);
        expect((await storage.getBlockByNumber(block.number))!.difficulty).toBe(MAX_UINT256);
        const stored = await withClient((client) =>
          client.query<{ value: string }>(`SELECT value::text FROM ${schema}.transactions WHERE hash = $1`, [Buffer.from(tx.hash.slice(2), 'hex')]),
        );
        expect(stored.rows[0]!.value).toBe('115792089237316195423570985008687907853269984665640564039457584007913129639935');
      });
    });

    it('parses int8, numeric and bytea only on its own connections, never in pg globally', async () => {
      await withStorage(async (storage) => {
        await storage.writeBlock(makeChain({ blocks: 1 })[0]!);
        expect(typeof (await storage.getCursor())!.number).toBe('bigint');
        const { rows } = await withClient((client) =>
          client.query<{ n: unknown; d: unknown; b: unknown }>(`SELECT 1::int8 AS n, 2::numeric AS d, '\\x01'::bytea AS b`),
        );
        expect(rows[0]).toEqual({ n: '1', d: '2', b: Buffer.from([1]) });
      });
    });
  });

  describe('writeBlock', () => {
    const corruptions: Record<string, (bundle: BlockBundle) => void> = {
      'a transaction of another block': (b) => {
        b.transactions[1]!.blockHash = b.block.parentHash;
      },
      'transactions out of index order': (b) => {
        b.transactions.reverse();
      },
      'a duplicate transaction hash': (b) => {
        b.transactions.push({ ...b.transactions[0]!, transactionIndex: 9 });
      },
      'a log of no transaction in the bundle': (b) => {
        b.logs.push({ ...b.logs[0]!, transactionHash: b.block.hash, logIndex: 99 });
      },
      'a log naming its transaction at another index': (b) => {
        b.logs.push({ ...b.logs.at(-1)!, transactionIndex: b.logs.at(-1)!.transactionIndex + 1, logIndex: 99 });
      },
      'logs out of logIndex order': (b) => {
        b.logs.push({ ...b.logs[0]! });
      },
    };
    for (const [name, corrupt] of Object.entries(corruptions)) {
      it(`rejects ${name} and writes nothing of it`, async () => {
        await withStorage(async (storage) => {
          const chain = makeChain({ blocks: 4, txPerBlock: 4 });
          await writeChain(storage, chain.slice(0, 3));
          const bad = chain[3]!;
          expect(bad.logs.length).toBeGreaterThan(0);
          corrupt(bad);
          await expect(storage.writeBlock(bad)).rejects.toThrow(/^writeBlock: /);
          await expectStoredChain(storage, chain.slice(0, 3), [chain[3]!]);
        });
      });
    }

    it('rolls back the whole block when a row conflicts with a stored one', async () => {
      await withStorage(async (storage) => {
        const chain = makeChain({ blocks: 3, txPerBlock: 4 });
        await writeChain(storage, chain.slice(0, 2));
        const clash = chain[2]!;
        // Passes every check before the database: only the transactions' primary key refuses it.
        clash.transactions[3]!.hash = chain[0]!.transactions[0]!.hash;
        clash.logs = clash.logs.filter((log) => log.transactionIndex !== 3);
        await expect(storage.writeBlock(clash)).rejects.toThrow(/duplicate key/);
        await expectStoredChain(storage, chain.slice(0, 2), [{ ...clash, transactions: clash.transactions.slice(0, 3) }]);
      });
    });

    it('lets exactly one of two processes write the same next block', async () => {
      await withStorage(async (storage, schema) => {
        const other = await createStorage(schema);
        try {
          await other.init();
          const chain = makeChain({ blocks: 2, txPerBlock: 3 });
          await storage.writeBlock(chain[0]!);
          const fork = makeChain({ blocks: 1, txPerBlock: 3, parent: chain[0]!.block, seed: 'fork' });
          const results = await Promise.allSettled([storage.writeBlock(chain[1]!), other.writeBlock(fork[0]!)]);
          expect(results.map((r) => r.status).sort()).toEqual(['fulfilled', 'rejected']);
          const written = results[0]!.status === 'fulfilled' ? chain : [chain[0]!, ...fork];
          await expectStoredChain(other, written);
          expect(await storage.getChainTotals()).toEqual(referenceTotals(written));
        } finally {
          await other.close();
        }
      });
    });
  });

  describe('rollbackTo', () => {
    it('recomputes the last activity of an address still active below the rollback point', async () => {
      await withStorage(async (storage) => {
        const chain = makeChain({ blocks: 6, txPerBlock: 3 });
        const sender = chain[0]!.transactions[0]!.from;
        for (const i of [1, 3, 5]) chain[i]!.transactions[0]!.from = sender;
        await writeChain(storage, chain);
        await storage.rollbackTo(4n);
        const kept = chain.slice(0, 5);
        expect(await storage.getAddressActivity(sender)).toMatchObject({ lastSeen: chain[3]!.block.timestamp });
        await expectStoredChain(storage, kept, [chain[5]!]);
      });
    });
  });

  describe('failures', () => {
    it('propagates a query error as a thrown Error', async () => {
      await withStorage(async (storage, schema) => {
        await withClient((client) => client.query(`DROP TABLE ${schema}.logs`));
        await expect(storage.getTransactionLogs(chainTransactions(makeChain({ blocks: 1 }))[0]!.hash)).rejects.toThrow(
          /relation .*logs" does not exist/,
        );
        await expect(storage.ping()).resolves.toBeUndefined();
      });
    });

    it('rejects init and ping when the server cannot be reached, and still closes', async () => {
      const storage = postgresStorage({
        connectionString: 'postgres://postgres@127.0.0.1:1/test',
        pool: { connectionTimeoutMillis: 2_000 },
      });
      await expect(storage.init()).rejects.toThrow(Error);
      await expect(storage.ping()).rejects.toThrow(Error);
      await storage.close();
    });

    it('logs a lost idle connection and serves the next call on a new one', async () => {
      const tag = `chainlens_idle_${process.pid}`;
      const logger = { warn: vi.fn(), error: vi.fn() };
      await withStorage(
        async (storage) => {
          await storage.ping();
          await terminateBackends(tag);
          await vi.waitFor(() => expect(logger.error).toHaveBeenCalled(), { timeout: 5_000, interval: 20 });
          expect(logger.error.mock.calls[0]![0]).toMatchObject({ err: expect.any(Error) });
          await expect(storage.ping()).resolves.toBeUndefined();
        },
        { connectionString: await taggedUrl(tag), logger },
      );
    });

    it('rejects a write whose connection is lost mid-transaction, and keeps working', async () => {
      const tag = `chainlens_midtx_${process.pid}`;
      await withStorage(
        async (storage, schema) => {
          const chain = makeChain({ blocks: 2, txPerBlock: 3 });
          await storage.writeBlock(chain[0]!);
          const release = await lockChainState(schema);
          try {
            // Caught at once: it rejects while the test is still terminating the backend.
            const failure = storage.writeBlock(chain[1]!).then(
              () => new Error('writeBlock resolved'),
              (error: unknown) => error,
            );
            await waitingOnLock(tag);
            await terminateBackends(tag);
            expect(await failure).toMatchObject({ message: expect.stringMatching(/terminat/) });
          } finally {
            await release();
          }
          await storage.writeBlock(chain[1]!);
          await expectStoredChain(storage, chain);
        },
        { connectionString: await taggedUrl(tag) },
      );
    });

    it('cancels a statement that outlasts statementTimeoutMs', async () => {
      const tag = `chainlens_timeout_${process.pid}`;
      await withStorage(
        async (storage, schema) => {
          const chain = makeChain({ blocks: 2 });
          await storage.writeBlock(chain[0]!);
          const release = await lockChainState(schema);
          try {
            await expect(storage.writeBlock(chain[1]!)).rejects.toThrow(/statement timeout/);
          } finally {
            await release();
          }
          await storage.writeBlock(chain[1]!);
          await expectStoredChain(storage, chain);
        },
        { connectionString: await taggedUrl(tag), statementTimeoutMs: 300 },
      );
    });
  });

  describe('options', () => {
    const connectionString = 'postgres://127.0.0.1:5432/test';
    const cases: [string, unknown, RegExp][] = [
      ['a missing connectionString', {}, /postgresStorage\.connectionString: is required/],
      ['a connectionString that is no postgres URL', { connectionString: 'mysql://x' }, /postgresStorage\.connectionString: must be a postgres:\/\/ URL/],
      ['a read replica that is no postgres URL', { connectionString, readConnectionStrings: ['mysql://replica'] }, /postgresStorage\.readConnectionStrings\.0: must be postgres:\/\/ URLs of read replicas/],
      ['a schema that is no plain identifier', { connectionString, schema: 'Chain-Lens' }, /postgresStorage\.schema: must be a lowercase identifier/],
      ['pool.max below 1', { connectionString, pool: { max: 0 } }, /postgresStorage\.pool\.max: /],
      ['a negative pool.idleTimeoutMillis', { connectionString, pool: { idleTimeoutMillis: -1 } }, /postgresStorage\.pool\.idleTimeoutMillis: /],
      ['a fractional statementTimeoutMs', { connectionString, statementTimeoutMs: 1.5 }, /postgresStorage\.statementTimeoutMs: /],
      ['a keepAliveInitialDelayMillis under a second', { connectionString, keepAliveInitialDelayMillis: 500 }, /postgresStorage\.keepAliveInitialDelayMillis: /],
      ['a logger without error()', { connectionString, logger: { warn() {} } }, /postgresStorage\.logger: must have warn and error methods/],
      ['an unknown option', { connectionString, poolSize: 3 }, /postgresStorage\.poolSize: /],
      ['an unknown pool option', { connectionString, pool: { min: 1 } }, /postgresStorage\.pool\.min: /],
    ];
    for (const [name, options, message] of cases) {
      it(`throws a ConfigError naming ${name}`, () => {
        expect(() => postgresStorage(options as PostgresStorageOptions)).toThrow(ConfigError);
        expect(() => postgresStorage(options as PostgresStorageOptions)).toThrow(message);
      });
    }

    it('accepts a bare connectionString and connects only in init()', async () => {
      const storage = postgresStorage({ connectionString: 'postgres://postgres@127.0.0.1:1/nowhere' });
      await storage.close();
    });
  });
});
