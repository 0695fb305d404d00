import { expect, it } from 'vitest';
import { errorEnvelope, get, indexedToHead, type ApiContext } from './context.js';

/** `/blockchain/state-root`, `/blockchain/network/stats`, `/block/getblock`, `/block/list`. */
export function blockTests(ctx: () => ApiContext): void {
  it('GET /blockchain/state-root/latest and /:number equal the node', async () => {
    const head = await indexedToHead(ctx());
    const block = await ctx().chain.publicClient.getBlock({ blockNumber: head });
    const latest = await get(ctx(), '/api/v1/blockchain/state-root/latest');
    expect(latest.body.result).toEqual({
      blockNumber: head.toString(),
      stateRoot: block.stateRoot,
      timestamp: block.timestamp.toString(),
      blockHash: block.hash,
      parentHash: block.parentHash,
    });
    const first = await ctx().chain.publicClient.getBlock({ blockNumber: 1n });
    expect((await get(ctx(), '/api/v1/blockchain/state-root/1')).body.result.stateRoot).toBe(first.stateRoot);
  });

  it('rejects a malformed block number with 400 and an unknown one with 404', async () => {
    for (const bad of ['abc', '-1', '1.5', '0x10', '01']) {
      const answer = await get(ctx(), `/api/v1/blockchain/state-root/${bad}`);
      expect(answer.status, bad).toBe(400);
      expect(answer.body).toEqual(errorEnvelope('Error! Invalid block number'));
    }
    const missing = await get(ctx(), '/api/v1/blockchain/state-root/99999999');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual(errorEnvelope('Error! Block not found'));
  });

  it('GET /blockchain/network/stats computes its figures from indexed blocks', async () => {
    const head = await indexedToHead(ctx());
    const { body } = await get(ctx(), '/api/v1/blockchain/network/stats');
    const stats = body.result;
    let transactions = 0;
    for (let n = 0n; n <= head; n++) {
      transactions += (await ctx().chain.publicClient.getBlock({ blockNumber: n })).transactions.length;
    }
    expect(stats.blockHeight).toBe(Number(head));
    expect(stats.totalTransactions).toBe(transactions);
    // The demo's eight top-level creations; `Caller.deployChild()` and `createPair` create from inside a call.
    expect(stats.totalContracts).toBe(8);
    expect(stats.totalAccounts).toBeGreaterThanOrEqual(10);
    expect(stats.gasPrice).toMatch(/^\d+$/);
    expect(stats.tps).toBeGreaterThanOrEqual(0);
    expect(stats.peakTps).toBeGreaterThanOrEqual(stats.tps);
    expect(stats.networkLoad).toBeGreaterThan(0);
    expect(stats.networkLoad).toBeLessThanOrEqual(100);
    expect(stats.totalSupply).toBeNull();
  });

  it('GET /block/getblock returns the block record for a number and for latest', async () => {
    const head = await indexedToHead(ctx());
    const chainBlock = await ctx().chain.publicClient.getBlock({ blockNumber: 2n });
    const { body } = await get(ctx(), '/api/v1/block/getblock?blockno=2');
    expect(body.result).toMatchObject({
      blockNumber: '2',
      hash: chainBlock.hash,
      parentHash: chainBlock.parentHash,
      timestamp: chainBlock.timestamp.toString(),
      miner: chainBlock.miner.toLowerCase(),
      gasUsed: chainBlock.gasUsed.toString(),
      gasLimit: chainBlock.gasLimit.toString(),
      stateRoot: chainBlock.stateRoot,
      transactionCount: chainBlock.transactions.length,
      transactions: chainBlock.transactions,
    });
    const latest = await get(ctx(), '/api/v1/block/getblock?blockno=latest');
    expect(BigInt(latest.body.result.blockNumber)).toBeGreaterThanOrEqual(head);
  });

  it('GET /block/getblock rejects a missing or malformed blockno and 404s an unknown block', async () => {
    expect((await get(ctx(), '/api/v1/block/getblock')).body).toEqual(errorEnvelope('Error! Invalid block number'));
    expect((await get(ctx(), '/api/v1/block/getblock?blockno=%27%20OR%201=1')).status).toBe(400);
    const missing = await get(ctx(), '/api/v1/block/getblock?blockno=123456789');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual(errorEnvelope('Error! Block not found'));
  });

  it('GET /block/list pages the indexed blocks newest first, each as /block/getblock answers it', async () => {
    const head = await indexedToHead(ctx());
    const first = (await get(ctx(), '/api/v1/block/list?offset=3')).body.result as any[];
    const second = (await get(ctx(), '/api/v1/block/list?page=2&offset=3')).body.result as any[];
    const top = BigInt(first[0].blockNumber);
    expect(top).toBeGreaterThanOrEqual(head);
    expect([...first, ...second].map((block) => BigInt(block.blockNumber))).toEqual([0n, 1n, 2n, 3n, 4n, 5n].map((i) => top - i));
    for (const block of [...first, ...second]) {
      expect(block).toEqual((await get(ctx(), `/api/v1/block/getblock?blockno=${block.blockNumber}`)).body.result);
    }
    // Page 1 of a large offset reaches genesis and stops there; past it, nothing.
    const all = (await get(ctx(), '/api/v1/block/list?offset=1000')).body.result as any[];
    expect(all.at(-1).blockNumber).toBe('0');
    expect(all.length).toBeLessThanOrEqual(100);
    const past = await get(ctx(), `/api/v1/block/list?page=${Number(top) + 2}&offset=1`);
    expect(past.body).toEqual({ status: '1', message: 'OK', result: [] });
    const zero = await get(ctx(), '/api/v1/block/list?offset=0');
    expect(zero.status).toBe(400);
    expect(zero.body).toEqual(errorEnvelope('Error! Invalid request: offset: must be a positive integer'));
  });
}
