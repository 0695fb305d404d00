import { createExplorer, type Explorer, type Hex } from '@chainlens/core';
import { createTestChain, deployDemo, type DemoDeployment, type TestChain } from '@chainlens/devchain';
import { indexedThrough, waitFor } from '@chainlens/testing';
import { memoryStorage } from '@chainlens/storage-memory';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  blockFeeRewardRecordSchema,
  contractCreationRecordSchema,
  gasOracleRecordSchema,
  internalTransactionRecordSchema,
  logSearchRecordSchema,
} from '../src/records/etherscan-record-schemas.js';

/**
 * The records only the Etherscan-compatible API answers are what their schemas say, field for
 * field (strict: none missing, none extra), as the services shape them from the demo chain.
 * Beacon withdrawals are not here: anvil's blocks carry none.
 */

let chain: TestChain;
let demo: DemoDeployment;
let explorer: Explorer;

const lower = (address: string) => address.toLowerCase() as Hex;

beforeAll(async () => {
  chain = await createTestChain();
  demo = await deployDemo({ rpcUrl: chain.rpcUrl });
  explorer = await createExplorer({ rpcUrl: chain.rpcUrl, storage: memoryStorage(), logger: pino({ level: 'silent' }), indexer: { pollIntervalMs: 20 } });
  await explorer.start();
  await waitFor(() => indexedThrough(explorer, demo.toBlock), 'the demo indexed');
}, 180_000);

afterAll(async () => {
  await explorer?.close();
  await chain?.close();
});

describe('Etherscan-only records', () => {
  it('the gas oracle answers its schema', async () => {
    gasOracleRecordSchema.strict().parse(await explorer.services.gasOracle.oracle());
  });

  it('a contract creation answers its schema, by a transaction (init code, no factory) and by a factory (no init code)', async () => {
    const own = contractCreationRecordSchema.strict().parse(await explorer.services.contracts.creation(lower(demo.contracts.token)));
    const byFactory = contractCreationRecordSchema.strict().parse(await explorer.services.contracts.creation(lower(demo.contracts.child)));
    expect([own.factory, own.initCode === null]).toEqual([null, false]);
    expect([byFactory.factory, byFactory.initCode]).toEqual([lower(demo.contracts.caller), null]);
  });

  it('internal transactions answer their schema', async () => {
    const internal = await explorer.services.transactions.internalTransactions(demo.transactions.deployments.child);
    expect(internal?.length).toBeGreaterThan(0);
    for (const record of internal!) internalTransactionRecordSchema.strict().parse(record);
  });

  it('a block’s fee reward and a miner’s blocks answer their schema', async () => {
    const { blockNumber } = await chain.publicClient.getTransactionReceipt({ hash: demo.transactions.transfer });
    const reward = blockFeeRewardRecordSchema.strict().parse(await explorer.services.blocks.feeReward(blockNumber));
    const mined = await explorer.services.blocks.minedBlocks(lower(reward.miner), 1, 5);
    expect(mined.length).toBeGreaterThan(0);
    for (const record of mined) blockFeeRewardRecordSchema.strict().parse(record);
  });

  it('a log search answers its schema', async () => {
    const logs = await explorer.services.logs.search({ address: lower(demo.contracts.emitter), topics: [], operators: {}, page: 1, offset: 10 });
    expect(logs.length).toBeGreaterThan(0);
    for (const record of logs) logSearchRecordSchema.strict().parse(record);
  });
});
