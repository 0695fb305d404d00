import { randomUUID } from 'node:crypto';
import type { BlockBundle, Storage } from '@chainlens/core';
import { chainAccounts, chainApprovals, chainLogs, chainTokenTransfers, expectStoredChain, makeChain, referenceAddressTransactions, referenceApprovals, referenceChartRollups, referenceTotals, withInternalTransactions, writeChain } from '@chainlens/testing';
import { describe, expect, it, vi } from 'vitest';
import { migrations } from '../src/migrations/index.js';
import { createStorage, testSchemas, withClient } from './database.js';

const schemas = testSchemas();

/** The rows of `schema`'s schema_migrations, oldest first. */
function appliedMigrations(schema: string) {
  return withClient(async (client) => {
    const { rows } = await client.query<{ version: number; name: string; applied_at: Date }>(
      `SELECT version, name, applied_at FROM ${schema}.schema_migrations ORDER BY version`,
    );
    return rows;
  });
}

/** Writes `chain` into `schema` with every migration applied (then `extra` on the same storage), and closes it. */
async function storeChain(schema: string, chain: BlockBundle[], extra: (storage: Storage) => Promise<void> = async () => undefined): Promise<void> {
  const storage = await createStorage(schema);
  try {
    await storage.init();
    await writeChain(storage, chain);
    await extra(storage);
  } finally {
    await storage.close();
  }
}

/**
 * Migrates `schema`, which holds `chain`'s first 30 blocks, and runs `expectPages` on them, after
 * a rollback to block 19, and after the rest of `chain` is written.
 */
async function expectPagedAcrossRollback(schema: string, chain: BlockBundle[], expectPages: (storage: Storage, stored: BlockBundle[]) => Promise<void>): Promise<void> {
  const storage = await createStorage(schema);
  try {
    await storage.init();
    await expectPages(storage, chain.slice(0, 30));
    await storage.rollbackTo(chain[19]!.block.number);
    await expectPages(storage, chain.slice(0, 20));
    await writeChain(storage, chain.slice(20));
    await expectPages(storage, chain);
  } finally {
    await storage.close();
  }
}

/** Every page of two of `all` (in chain order) as `read` gives it, in both orders. */
async function expectPairs<T>(all: T[], read: (page: number, sort: 'asc' | 'desc') => Promise<T[]>): Promise<void> {
  for (const [sort, ordered] of [['asc', all], ['desc', [...all].reverse()]] as const) {
    for (let page = 1; page <= Math.ceil(all.length / 2); page++) expect(await read(page, sort)).toEqual(ordered.slice((page - 1) * 2, page * 2));
  }
}

describe('migrations', () => {
  it('creates the schema and records every migration once', async () => {
    const schema = schemas.next();
    const storage = await createStorage(schema);
    try {
      await storage.init();
      expect((await appliedMigrations(schema)).map(({ version, name }) => ({ version, name }))).toEqual(
        migrations.map(({ version, name }) => ({ version, name })),
      );
    } finally {
      await storage.close();
    }
  });

  it('applies nothing again on a migrated schema and keeps its data', async () => {
    const schema = schemas.next();
    const chain = makeChain({ blocks: 3, txPerBlock: 4 });
    const first = await createStorage(schema);
    try {
      await first.init();
      await writeChain(first, chain);
      await first.init();
    } finally {
      await first.close();
    }
    const before = await appliedMigrations(schema);

    const second = await createStorage(schema);
    try {
      await second.init();
      expect(await appliedMigrations(schema)).toEqual(before);
      expect(await second.getCursor()).toEqual({ number: 2n, hash: chain[2]!.block.hash });
      expect(await second.getChainTotals()).toEqual(referenceTotals(chain));
    } finally {
      await second.close();
    }
  });

  it('brings a schema at version 1 up to date and keeps its chain', async () => {
    const schema = schemas.next();
    const chain = makeChain({ blocks: 3, txPerBlock: 4 });
    await storeChain(schema, chain);
    // What a release with only migration 1 left behind.
    await withClient((client) =>
      client.query(`DROP TABLE ${schema}.users, ${schema}.api_keys, ${schema}.counters, ${schema}.token_transfers, ${schema}.tokens, ${schema}.token_holders, ${schema}.metadata_profiles, ${schema}.dex_pairs, ${schema}.pair_syncs, ${schema}.pair_swaps, ${schema}.contract_creations, ${schema}.verified_contracts, ${schema}.verification_jobs, ${schema}.internal_transactions, ${schema}.chart_rollups, ${schema}.token_rollups, ${schema}.token_approvals, ${schema}.address_labels, ${schema}.label_state, ${schema}.private_labels, ${schema}.webhook_deliveries, ${schema}.webhook_subscriptions, ${schema}.webhooks; ALTER TABLE ${schema}.blocks DROP COLUMN transaction_hashes, DROP COLUMN new_address_count, DROP COLUMN hour_active_count, DROP COLUMN day_active_count; ALTER TABLE ${schema}.address_transactions DROP COLUMN seq; ALTER TABLE ${schema}.chain_state DROP COLUMN traced_number; ALTER TABLE ${schema}.address_stats DROP COLUMN last_timestamp, DROP COLUMN previous_timestamp; UPDATE ${schema}.address_stats SET transaction_count = transaction_count + 5; DROP INDEX ${schema}.logs_by_topic0, ${schema}.logs_by_topic1, ${schema}.logs_by_topic2, ${schema}.logs_by_topic3, ${schema}.blocks_by_miner; DELETE FROM ${schema}.schema_migrations WHERE version > 1`),
    );
    expect((await appliedMigrations(schema)).map((row) => row.version)).toEqual([1]);

    const storage = await createStorage(schema);
    try {
      await storage.init();
      expect((await appliedMigrations(schema)).map((row) => row.version)).toEqual(migrations.map((m) => m.version));
      expect(await storage.getChainTotals()).toEqual(referenceTotals(chain));
      // Migration 19 indexes the logs already stored: a search by a topic alone finds them.
      const logged = chainLogs(chain).findLast((log) => log.topics[1] !== undefined)!;
      expect(await storage.listLogs({ topics: [undefined, logged.topics[1]], operators: {}, page: 1, offset: 100 })).toEqual(chainLogs(chain).filter((log) => log.topics[1] === logged.topics[1]));
      // Without a trace row, a schema's blocks are traced again from the first.
      expect(await storage.getTraceCursor()).toBe(chain[0]!.block.number - 1n);
      // Address entries written before migration 12 are numbered by it (and the counts new ones
      // start from, set off above, made to count them again): pages read by number.
      for (const address of chainAccounts(chain)) {
        const all = referenceAddressTransactions(chain, address);
        expect(await storage.listAddressTransactions({ address, page: 2, offset: 1, sort: 'desc' })).toEqual(all.reverse().slice(1, 2));
      }
      const more = makeChain({ blocks: 2, txPerBlock: 4, parent: chain[2]!.block, seed: 'more' });
      await writeChain(storage, more);
      for (const address of chainAccounts([...chain, ...more])) {
        const all = referenceAddressTransactions([...chain, ...more], address);
        expect(await storage.listAddressTransactions({ address, page: 1, offset: 100, sort: 'desc' })).toEqual(all.reverse());
        expect((await storage.getAddressActivity(address)).transactionCount).toBe(all.length);
      }
      // Blocks written before migration 9 gather their hashes from the transactions table.
      for (const { block, transactions } of chain) {
        expect(await storage.getBlockWithTransactionHashes(block.number)).toEqual({ block, transactionHashes: transactions.map((tx) => tx.hash) });
      }
      const user = {
        id: randomUUID(),
        email: 'ada@example.com',
        name: 'Ada',
        passwordHash: 'x',
        roles: ['user'],
        isActive: true,
        createdAt: new Date(1_700_000_000_123),
      };
      expect(await storage.createUser(user)).toBe(true);
      expect(await storage.getUserById(user.id)).toEqual(user);
      expect(await storage.hitCounters([{ key: 'rate', amount: 2, expiresAt: 2_000_000_000_000 }], 1_700_000_000_000)).toEqual([2]);
    } finally {
      await storage.close();
    }
  });

  it('counts a schema indexed with its traces inline as traced through its cursor (migration 14)', async () => {
    const schema = schemas.next();
    const chain = withInternalTransactions(makeChain({ blocks: 4, txPerBlock: 3 }));
    await storeChain(schema, chain);
    // What a release before migration 14 left behind: traces written with their blocks, no trace cursor.
    await withClient((client) => client.query(`ALTER TABLE ${schema}.chain_state DROP COLUMN traced_number; DELETE FROM ${schema}.schema_migrations WHERE version = 14`));
    const storage = await createStorage(schema);
    try {
      await storage.init();
      expect(await storage.getTraceCursor()).toBe(chain.at(-1)!.block.number);
      await expectStoredChain(storage, chain);
    } finally {
      await storage.close();
    }
  });

  it('gives tokens read before migration 15 search keys: ASCII texts at once, the others by reading their metadata again', async () => {
    const schema = schemas.next();
    const chain = makeChain({ blocks: 12, txPerBlock: 6 });
    const [ascii, accented, unnamed] = [...new Set(chainTokenTransfers(chain).map((transfer) => transfer.token))];
    const metadata = (name: string | null, symbol: string | null) => ({ name, symbol, decimals: 18, interfaces: [] });
    await storeChain(schema, chain, async (old) => {
      await old.setTokenMetadata(ascii!, metadata('Wrapped Ether', 'WETH'));
      await old.setTokenMetadata(accented!, metadata('Ünïcode', 'UNI'));
      await old.setTokenMetadata(unnamed!, metadata(null, null));
    });
    // What a release before migration 15 left behind: no keys, no indexes on them.
    await withClient((client) => client.query(`ALTER TABLE ${schema}.tokens DROP COLUMN name_key, DROP COLUMN symbol_key; DELETE FROM ${schema}.schema_migrations WHERE version = 15`));
    const storage = await createStorage(schema);
    try {
      await storage.init();
      expect((await storage.searchTokens({ prefix: 'weth', limit: 10 })).map((token) => token.address)).toEqual([ascii]);
      expect((await storage.searchTokens({ prefix: 'WRAPPED', limit: 10 })).map((token) => token.address)).toEqual([ascii]);
      expect(await storage.searchTokens({ prefix: 'ünï', limit: 10 })).toEqual([]);
      expect(await storage.listTokensWithoutMetadata(10)).toContain(accented);
      expect(await storage.listTokensWithoutMetadata(10)).not.toContain(unnamed);
      await storage.setTokenMetadata(accented!, metadata('Ünïcode', 'UNI'));
      expect((await storage.searchTokens({ prefix: 'ünï', limit: 10 })).map((token) => token.address)).toEqual([accented]);
    } finally {
      await storage.close();
    }
  });

  it('counts a stored chain’s rollups and decodes its approvals (migrations 16 and 17), and rolls them back after', async () => {
    const schema = schemas.next();
    const chain = makeChain({ blocks: 40, txPerBlock: 5, blockTime: 1_800n });
    await storeChain(schema, chain);
    // What a release before migration 16 left behind.
    await withClient((client) =>
      client.query(`DROP TABLE ${schema}.chart_rollups, ${schema}.token_rollups, ${schema}.token_approvals, ${schema}.address_labels, ${schema}.label_state, ${schema}.private_labels, ${schema}.webhook_deliveries, ${schema}.webhook_subscriptions, ${schema}.webhooks;
        ALTER TABLE ${schema}.blocks DROP COLUMN new_address_count, DROP COLUMN hour_active_count, DROP COLUMN day_active_count;
        ALTER TABLE ${schema}.address_stats DROP COLUMN last_timestamp, DROP COLUMN previous_timestamp;
        DROP INDEX ${schema}.logs_by_topic0, ${schema}.logs_by_topic1, ${schema}.logs_by_topic2, ${schema}.logs_by_topic3, ${schema}.blocks_by_miner;
        ALTER TABLE ${schema}.token_transfers DROP COLUMN token_seq;
        DELETE FROM ${schema}.schema_migrations WHERE version >= 16`),
    );
    const storage = await createStorage(schema);
    try {
      await storage.init();
      const everything = { from: 0n, to: 2n ** 62n };
      const expectInsights = async (stored: typeof chain) => {
        for (const resolution of ['hour', 'day'] as const) {
          expect(await storage.listChartRollups({ resolution, ...everything })).toEqual(referenceChartRollups(stored, { resolution, ...everything }));
        }
        for (const owner of new Set(chainApprovals(chain).map((approval) => approval.owner))) {
          expect(await storage.listApprovals({ owner, page: 1, offset: 100 })).toEqual(referenceApprovals(stored, { owner, page: 1, offset: 100 }));
        }
      };
      expect(chainApprovals(chain).length).toBeGreaterThan(3);
      await expectInsights(chain);
      // Rollbacks take back what the migration counted, and writes add to it.
      await storage.rollbackTo(chain[17]!.block.number);
      await expectInsights(chain.slice(0, 18));
      await writeChain(storage, chain.slice(18));
      await expectInsights(chain);
    } finally {
      await storage.close();
    }
  });

  it('numbers a stored chain’s token transfers (migration 22), fixes the counts new ones start from, and pages them after a rollback and new blocks', async () => {
    const schema = schemas.next();
    const chain = makeChain({ blocks: 40, txPerBlock: 5 });
    await storeChain(schema, chain.slice(0, 30));
    // What a release before migration 22 left behind, with a token's count off as a crash might have left it.
    await withClient((client) =>
      client.query(`ALTER TABLE ${schema}.token_transfers DROP COLUMN token_seq;
        UPDATE ${schema}.tokens SET transfer_count = transfer_count + 3;
        DELETE FROM ${schema}.schema_migrations WHERE version >= 22`),
    );
    await expectPagedAcrossRollback(schema, chain, async (storage, stored) => {
      const tokens = [...new Set(chainTokenTransfers(stored).map((transfer) => transfer.token))];
      expect(tokens.length).toBeGreaterThan(1);
      for (const token of tokens) {
        const all = chainTokenTransfers(stored).filter((transfer) => transfer.token === token);
        expect((await storage.getToken(token))?.transferCount).toBe(all.length);
        await expectPairs(all, (page, sort) => storage.listTokenTransfers({ token, page, offset: 2, sort }));
      }
    });
  });

  it('numbers a stored chain’s logs per contract (migration 24) and pages them after a rollback and new blocks', async () => {
    const schema = schemas.next();
    const chain = makeChain({ blocks: 40, txPerBlock: 5 });
    await storeChain(schema, chain.slice(0, 30));
    // What a release before migration 24 left behind.
    await withClient((client) => client.query(`ALTER TABLE ${schema}.logs DROP COLUMN address_seq; DELETE FROM ${schema}.schema_migrations WHERE version >= 24`));
    await expectPagedAcrossRollback(schema, chain, async (storage, stored) => {
      const logs = chainLogs(stored);
      const contracts = [...new Set(logs.map((log) => log.address))];
      expect(contracts.some((contract) => logs.filter((log) => log.address === contract).length > 4)).toBe(true);
      for (const contract of contracts) {
        await expectPairs(
          logs.filter((log) => log.address === contract),
          (page, sort) => storage.listAddressLogs({ address: contract, page, offset: 2, sort }),
        );
      }
    });
  });

  it('lets several processes init the same new schema at once', async () => {
    const schema = schemas.next();
    const storages = await Promise.all(Array.from({ length: 4 }, () => createStorage(schema)));
    try {
      await Promise.all(storages.map((storage) => storage.init()));
      expect((await appliedMigrations(schema)).map((row) => row.version)).toEqual(migrations.map((m) => m.version));
      const chain = makeChain({ blocks: 2, txPerBlock: 2 });
      await writeChain(storages[0]!, chain);
      for (const storage of storages) expect(await storage.getChainTotals()).toEqual(referenceTotals(chain));
    } finally {
      await Promise.all(storages.map((storage) => storage.close()));
    }
  });

  it('warns, and still starts, when a newer release migrated the schema', async () => {
    const schema = schemas.next();
    const first = await createStorage(schema);
    await first.init();
    await first.close();
    await withClient((client) => client.query(`INSERT INTO ${schema}.schema_migrations (version, name) VALUES (999, 'future')`));
    const logger = { warn: vi.fn(), error: vi.fn() };
    const storage = await createStorage(schema, { logger });
    try {
      await storage.init();
      expect(logger.warn).toHaveBeenCalledWith({ schema, versions: [999] }, expect.stringMatching(/newer than this release/));
      await expect(storage.getCursor()).resolves.toBeNull();
    } finally {
      await storage.close();
    }
  });

  it('keeps schemas apart', async () => {
    const [a, b] = await Promise.all([createStorage(schemas.next()), createStorage(schemas.next())]);
    try {
      await Promise.all([a.init(), b.init()]);
      const chain = makeChain({ blocks: 2 });
      await writeChain(a, chain);
      expect(await b.getCursor()).toBeNull();
      expect(await b.getBlockByHash(chain[0]!.block.hash)).toBeNull();
      await writeChain(b, makeChain({ blocks: 1, startNumber: 100n, seed: 'other' }));
      expect(await a.getCursor()).toEqual({ number: 1n, hash: chain[1]!.block.hash });
    } finally {
      await Promise.all([a.close(), b.close()]);
    }
  });
});
