import { expect, it } from 'vitest';
import { call, type ApiContext } from './context.js';

/**
 * The records the API description (`/api/v1/openapi.json`) promises are the ones served: real
 * answers about the demo's blocks, transactions, tokens and contracts are checked against each
 * route's `response` schema, patterns included (lowercase hex, decimal strings).
 */
export function documentedRecordTests(ctx: () => ApiContext): void {
  it('answers every sampled route with the record its API description shows', async () => {
    const { demo, explorer } = ctx();
    const { transfer } = demo.transactions;
    const account = demo.accounts[1]!.toLowerCase();
    const { token, emitter } = demo.contracts;
    const samples: [pattern: string, url: string][] = [
      ['/api/v1/health', '/api/v1/health'],
      ['/api/v1/block/getblock', '/api/v1/block/getblock?blockno=latest'],
      ['/api/v1/transaction/:hash', `/api/v1/transaction/${transfer}`],
      ['/api/v1/transaction/:hash/receipt', `/api/v1/transaction/${transfer}/receipt`],
      ['/api/v1/transaction/:hash/logs', `/api/v1/transaction/${transfer}/logs`],
      ['/api/v1/transaction/:hash/logs', `/api/v1/transaction/${transfer}/logs?decode=true`],
      ['/api/v1/transaction/gettxinfo', `/api/v1/transaction/gettxinfo?txhash=${transfer}`],
      ['/api/v1/transaction/status/:hash', `/api/v1/transaction/status/${transfer}`],
      ['/api/v1/transaction/pending', '/api/v1/transaction/pending'],
      ['/api/v1/account/balance', `/api/v1/account/balance?address=${account}`],
      ['/api/v1/account/txlist', `/api/v1/account/txlist?address=${account}`],
      ['/api/v1/token/list', '/api/v1/token/list'],
      ['/api/v1/token/:address', `/api/v1/token/${token}`],
      ['/api/v1/token/:address/holders', `/api/v1/token/${token}/holders`],
      ['/api/v1/token/:address/transfers', `/api/v1/token/${token}/transfers`],
      ['/api/v1/token/:address/analytics', `/api/v1/token/${token}/analytics`],
      ['/api/v1/contract/:address', `/api/v1/contract/${token}`],
      ['/api/v1/contract/:address/events', `/api/v1/contract/${emitter}/events`],
      ['/api/v1/contract/:address/interactions', `/api/v1/contract/${token}/interactions?address=${demo.accounts[0]}`],
      ['/api/v1/metadata/:address', `/api/v1/metadata/${token}`],
      ['/api/v1/blockchain/validators', '/api/v1/blockchain/validators'],
      ['/api/v1/blockchain/consensus/info', '/api/v1/blockchain/consensus/info'],
      ['/api/v1/blockchain/finality/:blockNumber', '/api/v1/blockchain/finality/1'],
      ['/api/v1/blockchain/state-root/:blockNumber', '/api/v1/blockchain/state-root/1'],
      ['/api/v1/blockchain/network/stats', '/api/v1/blockchain/network/stats'],
    ];
    const mismatches: string[] = [];
    for (const [pattern, url] of samples) {
      const route = explorer.kernel.routes.find((candidate) => candidate.method === 'GET' && candidate.path === pattern);
      expect(route?.response, pattern).toBeDefined();
      const answer = await call(ctx(), 'GET', url);
      expect(answer.status, url).toBe(200);
      const parsed = route!.response!.safeParse(answer.body.result);
      if (!parsed.success) mismatches.push(...parsed.error.issues.map((issue) => `${url}: ${issue.path.join('.')}: ${issue.message}`));
    }
    expect(mismatches).toEqual([]);
  });
}
