import { expect, it } from 'vitest';
import { refusal } from './client.js';
import { apiKey, userToken, type ChannelContext } from './context.js';

const BLOCKED = '0x000000000000000000000000000000000000dead';

/** Channels defined by the library user, credentials at connect and in a first message, and scopes. */
export function customChannelAndAuthTests(ctx: () => ChannelContext): void {
  const defined = new WeakSet<object>();
  const define = () => {
    const { explorer } = ctx();
    if (defined.has(explorer)) return;
    defined.add(explorer);
    explorer.channels.define('alerts');
    explorer.channels.define('admin_alerts', { scope: 'admin' });
    explorer.channels.define('watchlist', { addressed: true, validate: ({ address }) => (address === BLOCKED ? 'Address is not watchable' : true) });
  };

  it('a defined channel is subscribed to and published like a built-in one', async () => {
    define();
    const { explorer } = ctx();
    const client = await ctx().client();
    expect(await client.subscribe('alerts')).toEqual({ event: 'subscribed', channel: 'alerts' });
    explorer.channels.publish('alerts', { level: 'high', text: 'whale moved' }, { blockNumber: 42n });
    expect(await client.next((m) => m.channel === 'alerts')).toEqual({ sequence: 1, channel: 'alerts', blockNumber: '42', data: { level: 'high', text: 'whale moved' } });
  });

  it('an address-scoped defined channel delivers per address and runs its validate', async () => {
    define();
    const { explorer, demo } = ctx();
    const client = await ctx().client();
    const watched = demo.accounts[2]!.toLowerCase();
    await client.subscribe('watchlist', { address: watched });
    expect(await client.subscribe('watchlist', { address: BLOCKED })).toEqual({ event: 'error', channel: 'watchlist', address: BLOCKED, message: 'Address is not watchable' });
    explorer.channels.publish('watchlist', { n: 1 }, { address: demo.accounts[3]! });
    explorer.channels.publish('watchlist', { n: 2 }, { address: demo.accounts[2]! });
    expect(await client.next((m) => m.channel === 'watchlist')).toMatchObject({ sequence: 1, address: watched, data: { n: 2 } });
    expect(() => explorer.channels.publish('watchlist', {})).toThrow('channel watchlist is address-scoped: pass { address }');
    expect(() => explorer.channels.publish('blocks', {})).toThrow(/not a defined custom channel/);
    expect(() => explorer.channels.define('blocks')).toThrow('channel blocks is already defined');
  });

  it('a scoped channel refuses anonymous (Unauthorized) and too small a scope (Forbidden), and accepts ?token=', async () => {
    define();
    const anonymous = await ctx().client();
    expect(await anonymous.subscribe('admin_alerts')).toEqual({ event: 'error', channel: 'admin_alerts', message: 'Unauthorized' });
    const user = await ctx().client(`?token=${await userToken(ctx())}`);
    expect(await user.subscribe('admin_alerts')).toEqual({ event: 'error', channel: 'admin_alerts', message: 'Forbidden: insufficient scope' });
    const admin = await ctx().client(`?token=${await userToken(ctx(), ['user', 'admin'])}`);
    expect(await admin.subscribe('admin_alerts')).toEqual({ event: 'subscribed', channel: 'admin_alerts' });
    ctx().explorer.channels.publish('admin_alerts', 'for admins');
    expect((await admin.next((m) => m.channel === 'admin_alerts')).data).toBe('for admins');
  });

  it('authenticates with a first message (API key or token) and answers bad credentials with their REST message', async () => {
    define();
    const token = await userToken(ctx(), ['user', 'admin']);
    const key = await apiKey(ctx(), token, ['read', 'admin']);
    const client = await ctx().client();
    expect(await client.request({ event: 'auth', apiKey: 'clk_not-a-real-key' }, () => true)).toEqual({ event: 'error', message: 'Invalid API key' });
    expect(await client.request({ event: 'auth', token: 'not.a.jwt' }, () => true)).toEqual({ event: 'error', message: 'Unauthorized' });
    expect(await client.request({ event: 'auth', apiKey: key }, () => true)).toEqual({ event: 'authenticated' });
    expect(await client.subscribe('admin_alerts')).toEqual({ event: 'subscribed', channel: 'admin_alerts' });
  });

  it('refuses the upgrade with 401 and the REST message for credentials that do not hold', async () => {
    const { WebSocket } = ctx().options;
    expect(await refusal(WebSocket, `${ctx().wsUrl}?token=not.a.jwt`)).toEqual({ status: 401, body: { status: '0', message: 'Unauthorized', result: null } });
    expect(await refusal(WebSocket, `${ctx().wsUrl}?apiKey=clk_nope`)).toEqual({ status: 401, body: { status: '0', message: 'Invalid API key', result: null } });
    expect(await refusal(WebSocket, ctx().wsUrl, { 'x-api-key': 'clk_nope' })).toEqual({ status: 401, body: { status: '0', message: 'Invalid API key', result: null } });
  });
}
