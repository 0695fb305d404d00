import { expect, it } from 'vitest';
import { errorEnvelope, get, waitFor, type ApiContext } from './context.js';

/** Runs last: stops the node and checks that reads are still served and node-bound calls answer 503. */
export function outageTests(ctx: () => ApiContext): void {
  it('keeps serving indexed data while the node is down, answers node-bound calls 503, and reports degraded health', async () => {
    const { transfer } = ctx().demo.transactions;
    await ctx().chain.anvil.stop();

    const tx = await get(ctx(), `/api/v1/transaction/${transfer}`);
    expect(tx.status).toBe(200);
    expect(tx.body.result.hash).toBe(transfer);
    expect((await get(ctx(), '/api/v1/block/getblock?blockno=latest')).status).toBe(200);

    const balance = await get(ctx(), `/api/v1/account/balance?address=${ctx().demo.accounts[0]}`);
    expect(balance.status).toBe(503);
    expect(balance.body).toEqual(errorEnvelope('Error! Upstream node unavailable'));

    const stats = await get(ctx(), '/api/v1/blockchain/network/stats');
    expect(stats.status).toBe(200);
    expect(stats.body.result.gasPrice).toBeNull();

    const health = await waitFor(async () => {
      const answer = await get(ctx(), '/api/v1/health');
      return answer.body.result.status === 'degraded' ? answer : null;
    }, 'degraded health');
    expect(health.status).toBe(200);
    expect(health.body.result).toMatchObject({ latestBlock: null, storage: 'ok' });
  });
}
