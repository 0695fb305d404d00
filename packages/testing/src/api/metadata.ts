import { expect, it } from 'vitest';
import { call, errorEnvelope, get, indexedToHead, signUp, type ApiContext } from './context.js';

const PROFILE = {
  type: 'token',
  logo: 'https://example.com/demo.png',
  description: 'The demo token.\nSecond line: “quotes”, 名前 and 🚀.',
  website: 'https://example.com',
  social: { twitter: 'https://x.com/demo', telegram: '@demo' },
  verified: true,
  riskScore: 7.5,
  trustLevel: 'high',
  auditReports: [{ auditor: 'Audit One', date: '2026-01-31', url: 'https://example.com/audit.pdf' }],
  tags: ['demo', 'erc20', 'demo'],
};

/** `GET /metadata/:address` and `PUT /api/v2/metadata/:address`. */
export function metadataTests(ctx: () => ApiContext): void {
  const put = (address: string, body: unknown, headers: Record<string, string>) => call(ctx(), 'PUT', `/api/v2/metadata/${address}`, body, headers);

  it('an admin sets a profile; everyone reads it, and the token record shows it', async () => {
    await indexedToHead(ctx());
    const admin = await signUp(ctx(), ['admin', 'user']);
    const token = ctx().demo.contracts.token.toLowerCase();
    const before = Date.now();
    const answer = await put(token, PROFILE, admin.bearer);
    expect(answer.status).toBe(200);
    const expected = {
      address: token,
      chainId: ctx().demo.chainId,
      type: 'token',
      name: null,
      symbol: null,
      logo: PROFILE.logo,
      description: PROFILE.description,
      website: PROFILE.website,
      whitepaper: null,
      social: { twitter: 'https://x.com/demo', telegram: '@demo', discord: null, github: null },
      verified: true,
      verifiedBy: admin.email,
      verifiedAt: expect.any(String),
      riskScore: 7.5,
      trustLevel: 'high',
      auditReports: PROFILE.auditReports,
      tags: ['demo', 'erc20'],
      updatedAt: expect.any(String),
    };
    expect(answer.body.result).toEqual(expected);
    expect(Date.parse(answer.body.result.verifiedAt)).toBeGreaterThanOrEqual(before - 1_000);
    const read = await get(ctx(), `/api/v1/metadata/${token.toUpperCase().replace('0X', '0x')}`);
    expect(read.status).toBe(200);
    expect(read.body.result).toEqual(answer.body.result);

    const record = (await get(ctx(), `/api/v1/token/${token}`)).body.result;
    expect(record).toMatchObject({
      verified: true,
      website: PROFILE.website,
      social: { twitter: 'https://x.com/demo', telegram: '@demo' },
      metadata: { logo: PROFILE.logo, description: PROFILE.description, riskScore: 7.5, trustLevel: 'high' },
    });
  });

  it('a put replaces the whole profile', async () => {
    const admin = await signUp(ctx(), ['admin', 'user']);
    const address = ctx().demo.contracts.nft;
    await put(address, PROFILE, admin.bearer);
    const replaced = await put(address, { type: 'nft', name: 'Renamed', verified: false }, admin.bearer);
    expect(replaced.body.result).toMatchObject({ type: 'nft', name: 'Renamed', logo: null, verified: false, verifiedBy: null, verifiedAt: null, auditReports: [], tags: [] });
    expect((await get(ctx(), `/api/v1/metadata/${address}`)).body.result).toEqual(replaced.body.result);
  });

  it('a token without a profile gets its contract’s name and symbol; any other address is 404', async () => {
    const address = ctx().demo.contracts.multiToken;
    const nameless = (await get(ctx(), `/api/v1/metadata/${address}`)).body.result;
    expect(nameless).toMatchObject({ address: address.toLowerCase(), type: 'token', name: null, verified: false, updatedAt: null, tags: [] });
    const missing = await get(ctx(), `/api/v1/metadata/${ctx().demo.accounts[8]}`);
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual(errorEnvelope('Error! Metadata not found'));
  });

  it('only the admin scope may set profiles; other v2 paths are unknown', async () => {
    const member = await signUp(ctx());
    const address = ctx().demo.contracts.emitter;
    expect((await put(address, PROFILE, member.bearer)).body).toEqual(errorEnvelope('Forbidden: insufficient scope'));
    const anonymous = await put(address, PROFILE, {});
    expect(anonymous.status).toBe(401);
    expect((await get(ctx(), `/api/v1/metadata/${address}`)).status).toBe(404);
    const admin = await signUp(ctx(), ['admin', 'user']);
    const key = (await call(ctx(), 'POST', '/api/v1/auth/api-keys', { name: 'ops', scopes: ['admin'] }, admin.bearer)).body.result.key as string;
    expect((await put(address, { type: 'contract' }, { 'x-api-key': key })).status).toBe(200);
    for (const [method, path] of [['GET', `/api/v2/metadata/${address}`], ['GET', '/api/v2/health'], ['PUT', '/api/v2/token/x']] as const) {
      const answer = await call(ctx(), method, path, method === 'PUT' ? {} : undefined, admin.bearer);
      expect(answer.status, path).toBe(404);
      expect(answer.body).toEqual(errorEnvelope('Error! Endpoint not found'));
    }
  });

  it('refuses bad profiles with 400 and keeps the stored one', async () => {
    const admin = await signUp(ctx(), ['admin', 'user']);
    const address = ctx().demo.contracts.caller;
    const good = await put(address, { type: 'contract', name: 'Caller' }, admin.bearer);
    const bad = [
      { type: 'contract', owner: 'me' },
      { type: 'contract', logo: 'javascript:alert(1)' },
      { type: 'contract', website: 'not a url' },
      { type: 'contract', riskScore: 101 },
      { type: 'contract', riskScore: '5' },
      { type: 'contract', auditReports: [{ auditor: 'A', date: '2026-13-01', url: 'https://example.com' }] },
      { type: 'contract', tags: Array.from({ length: 21 }, (_, i) => `t${i}`) },
      { type: 'contract', name: 'nul\u0000byte' },
      { type: 'contract', name: '\ud800' },
      { type: 'contract', description: 'x'.repeat(5_001) },
      { type: 'contract', verifiedAt: 'yesterday' },
      { type: 'contract', social: { myspace: 'x' } },
      { type: '' },
    ];
    for (const body of bad) {
      const answer = await put(address, body, admin.bearer);
      expect(answer.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(answer.body.message).toMatch(/^Error! Invalid request: /);
    }
    expect((await get(ctx(), `/api/v1/metadata/${address}`)).body.result).toEqual(good.body.result);
  });
}
