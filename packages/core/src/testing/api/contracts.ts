import { expect, it } from 'vitest';
import { errorEnvelope, get, indexedToHead, type ApiContext } from './context.js';

/** `/contract/:address`. */
export function contractTests(ctx: () => ApiContext): void {
  it('GET /contract/:address answers a contract created inside a transaction with its creating contract', async () => {
    await indexedToHead(ctx());
    const { child, caller } = ctx().demo.contracts;
    const { status, body } = await get(ctx(), `/api/v1/contract/${child}`);
    expect(status).toBe(200);
    expect(body.result).toMatchObject({
      address: child.toLowerCase(),
      creator: caller.toLowerCase(),
      creationTx: ctx().demo.transactions.deployments.child,
      verified: false,
      isToken: false,
      isProxy: false,
    });
    expect(body.result.balance).toMatch(/^\d+$/);
  });

  it('GET /contract/:address 404s an address without code and 400s a malformed one', async () => {
    expect((await get(ctx(), `/api/v1/contract/${ctx().demo.accounts[9]}`)).body).toEqual(errorEnvelope('Error! Contract not found'));
    expect((await get(ctx(), `/api/v1/contract/${ctx().demo.accounts[9]}`)).status).toBe(404);
    const bad = await get(ctx(), '/api/v1/contract/0x1234');
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual(errorEnvelope('Error! Invalid address format'));
  });
}
