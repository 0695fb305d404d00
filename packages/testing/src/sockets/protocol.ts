import { randomUUID } from 'node:crypto';
import { expect, it } from 'vitest';
import { waitFor } from '../api/context.js';
import type { SocketAcceptance } from '@chainlens/core';
import { refusal } from './client.js';
import { SUITE_SOCKET_LIMITS, type ChannelContext } from './context.js';

const isError = (m: Record<string, any>) => m.event === 'error';

/** The protocol's messages, its errors (the socket stays open), and the connection limits. */
export function protocolTests(ctx: () => ChannelContext): void {
  it('answers ping with pong', async () => {
    const client = await ctx().client();
    expect(await client.request({ event: 'ping' }, () => true)).toEqual({ event: 'pong' });
  });

  it('answers every mistake with an error and keeps the socket open', async () => {
    const client = await ctx().client();
    const address = ctx().demo.accounts[1]!;
    const cases: [unknown, Record<string, unknown>][] = [
      ['{not json', { event: 'error', message: 'Malformed JSON' }],
      [{ event: 'dance' }, { event: 'error', message: 'Unknown event: dance' }],
      [{ event: 'subscribe' }, { event: 'error', message: 'Invalid message: channel: Invalid input: expected string, received undefined' }],
      [{ event: 'subscribe', channel: 'nope' }, { event: 'error', message: 'Unknown channel: nope', channel: 'nope' }],
      [{ event: 'subscribe', channel: 'address_transactions' }, { event: 'error', message: 'Missing address: channel address_transactions needs one', channel: 'address_transactions' }],
      [{ event: 'subscribe', channel: 'token_transfers', address: '0x1234' }, { event: 'error', message: 'Error! Invalid address format', channel: 'token_transfers', address: '0x1234' }],
      [{ event: 'subscribe', channel: 'blocks', address }, { event: 'error', message: 'Channel blocks takes no address', channel: 'blocks', address }],
      [{ event: 'subscribe', channel: 'validators', fromBlock: 1 }, { event: 'error', message: 'fromBlock is not available on channel validators', channel: 'validators' }],
      [{ event: 'subscribe', channel: 'blocks', fromBlock: -1 }, { event: 'error', message: expect.stringMatching(/^Invalid message: fromBlock/) }],
    ];
    for (const [message, answer] of cases) expect(await client.request(message, isError)).toEqual(answer);
    expect(await client.request({ event: 'ping' }, () => true)).toEqual({ event: 'pong' });
  });

  it('acknowledges subscribe and unsubscribe, with the address in lower case', async () => {
    const client = await ctx().client();
    const address = ctx().demo.accounts[1]!;
    expect(await client.subscribe('address_transactions', { address })).toEqual({ event: 'subscribed', channel: 'address_transactions', address: address.toLowerCase() });
    expect(await client.request({ event: 'unsubscribe', channel: 'address_transactions', address }, (m) => m.event === 'unsubscribed')).toEqual({
      event: 'unsubscribed',
      channel: 'address_transactions',
      address: address.toLowerCase(),
    });
  });

  it(`refuses a subscription beyond the connection's limit (${SUITE_SOCKET_LIMITS.maxSubscriptions})`, async () => {
    const client = await ctx().client();
    const accounts = ctx().demo.accounts;
    for (let i = 0; i < SUITE_SOCKET_LIMITS.maxSubscriptions; i++) expect((await client.subscribe('address_transactions', { address: accounts[i] })).event).toBe('subscribed');
    expect(await client.subscribe('blocks')).toEqual({ event: 'error', channel: 'blocks', message: `Too many subscriptions: at most ${SUITE_SOCKET_LIMITS.maxSubscriptions} per connection` });
    await client.request({ event: 'unsubscribe', channel: 'address_transactions', address: accounts[0] }, (m) => m.event === 'unsubscribed');
    expect((await client.subscribe('blocks')).event).toBe('subscribed');
  });

  it('closes the connection with 1009 when a message is larger than the limit', async () => {
    const client = await ctx().client();
    client.send({ event: 'ping', padding: 'x'.repeat(SUITE_SOCKET_LIMITS.maxMessageBytes) });
    expect(await client.closed()).toBe(1009);
  });

  it('terminates a peer that stops answering pings, and keeps those that answer', async () => {
    const silent = await ctx().client('', { autoPong: false });
    const answering = await ctx().client();
    await silent.closed();
    expect(silent.closeCode).toBe(1006);
    expect(await answering.request({ event: 'ping' }, () => true)).toEqual({ event: 'pong' });
  });

  it('refuses an unknown path with 404 and an origin not allowed with 403, envelopes as in REST', async () => {
    const { WebSocket } = ctx().options;
    expect(await refusal(WebSocket, `${ctx().url.replace(/^http/, 'ws')}/nowhere`)).toEqual({
      status: 404,
      body: { status: '0', message: 'Error! Endpoint not found', result: null },
    });
    expect(await refusal(WebSocket, ctx().wsUrl, { origin: 'https://evil.example' })).toEqual({
      status: 403,
      body: { status: '0', message: 'Forbidden: origin not allowed', result: null },
    });
    const allowed = await ctx().client('', { headers: { origin: 'https://allowed.example' } });
    expect(await allowed.request({ event: 'ping' }, () => true)).toEqual({ event: 'pong' });
  });

  it(`refuses connections beyond ${SUITE_SOCKET_LIMITS.maxConnectionsPerIp} per address with 429`, async () => {
    const { explorer } = ctx();
    await waitFor(() => explorer.sockets.stats().connections === 0 || null, 'earlier connections to close');
    const open = [];
    for (let i = 0; i < SUITE_SOCKET_LIMITS.maxConnectionsPerIp; i++) open.push(await ctx().client());
    expect(explorer.sockets.stats().connections).toBe(SUITE_SOCKET_LIMITS.maxConnectionsPerIp);
    expect(await refusal(ctx().options.WebSocket, ctx().wsUrl)).toEqual({ status: 429, body: { status: '0', message: 'Max rate limit reached', result: null } });
    open.pop()!.close();
    await waitFor(() => explorer.sockets.stats().connections < SUITE_SOCKET_LIMITS.maxConnectionsPerIp || null, 'a connection to close');
    open.push(await ctx().client());
    for (const client of open) client.close();
  });

  it(`lets at most ${SUITE_SOCKET_LIMITS.maxConnectionsPerIp} of 200 simultaneous handshakes from one address in, counting those in flight`, async () => {
    const { explorer } = ctx();
    const cap = SUITE_SOCKET_LIMITS.maxConnectionsPerIp;
    await waitFor(() => explorer.sockets.stats().connections === 0 || null, 'earlier connections to close');
    // 200 upgrade requests admitted at once, as an adapter does when they arrive together: none
    // of them has opened a socket yet, so only a count of admissions in flight can hold them.
    const handshake = {
      method: 'GET',
      url: '/ws',
      headers: { upgrade: 'websocket', connection: 'Upgrade', 'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==', 'sec-websocket-version': '13' },
      ip: '127.0.0.1',
    };
    const admissions = await Promise.all(Array.from({ length: 200 }, () => explorer.sockets.admit(handshake)));
    const accepted = admissions.filter((admission): admission is SocketAcceptance => admission.accepted);
    expect(accepted).toHaveLength(cap);
    for (const admission of admissions) if (!admission.accepted) expect(admission.response.status).toBe(429);
    // Upgrades that never complete give their places back.
    for (const acceptance of accepted) explorer.sockets.abandon(acceptance);

    // Through the adapter: 200 tokens never checked before, so every handshake waits for its own verification.
    const tokens = await Promise.all(
      Array.from({ length: 200 }, async () => {
        const id = randomUUID();
        const user = { id, email: `burst-${id}@example.com`, name: 'Burst', passwordHash: 'never checked', roles: ['user'], isActive: true, createdAt: new Date() };
        await explorer.storage.createUser(user);
        return (await explorer.users.refresh({ kind: 'jwt', user, expiresAt: new Date() })).access_token;
      }),
    );
    const outcomes = await Promise.allSettled(tokens.map((token) => ctx().client(`?token=${token}`)));
    const opened = outcomes.filter((outcome) => outcome.status === 'fulfilled');
    expect(opened).toHaveLength(cap);
    expect(explorer.sockets.stats().connections).toBe(cap);
    for (const outcome of outcomes) if (outcome.status === 'rejected') expect(outcome.reason).toMatchObject({ status: 429 });
    for (const outcome of opened) outcome.value.close();
    await waitFor(() => explorer.sockets.stats().connections === 0 || null, 'the connections to close');
  });
}
