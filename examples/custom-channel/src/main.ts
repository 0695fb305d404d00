/**
 * A channel of your own: `large_transfers` tells subscribers of an address about every transfer
 * of at least 1 ETH it receives, as blocks are indexed. The program starts a dev chain, serves
 * the explorer, connects a client, sends 2 ETH and prints what the client receives.
 *
 * Run it: `node --conditions=source --import tsx examples/custom-channel/src/main.ts`
 */
import type { AddressInfo } from 'node:net';
import { chainlens } from '@chainlens/adapter-fastify';
import { createExplorer } from '@chainlens/core';
import { createTestChain } from '@chainlens/devchain';
import { memoryStorage } from '@chainlens/storage-memory';
import Fastify from 'fastify';
import { formatEther, parseEther } from 'viem';
import { WebSocket } from 'ws';

const THRESHOLD = parseEther('1');

const chain = await createTestChain();
const explorer = await createExplorer({ rpcUrl: chain.rpcUrl, storage: memoryStorage(), logLevel: 'error', indexer: { pollIntervalMs: 50 } });

// 1. Define the channel: address-scoped, open to anyone (pass `scope: 'read'` to require credentials).
explorer.channels.define('large_transfers', { addressed: true });

// 2. Publish from whatever you like; here, from each block the indexer writes.
explorer.hub.on('block', ({ block, transactions }) => {
  for (const tx of transactions) {
    if (tx.to === null || tx.value < THRESHOLD) continue;
    explorer.channels.publish('large_transfers', { hash: tx.hash, from: tx.from, ether: formatEther(tx.value) }, { address: tx.to, blockNumber: block.number });
  }
});

const app = Fastify();
await app.register(chainlens, { explorer });
await app.listen({ host: '127.0.0.1', port: 0 });
await explorer.start();
const wsUrl = `ws://127.0.0.1:${(app.server.address() as AddressInfo).port}/ws`;

// 3. A client subscribes like to any built-in channel.
const recipient = chain.accounts[1]!.address;
const client = new WebSocket(wsUrl);
const received = new Promise<string>((resolve) => {
  client.on('message', (data) => {
    const message = JSON.parse(data.toString()) as { event?: string; channel?: string };
    if (message.event === 'subscribed') void chain.walletClient.sendTransaction({ to: recipient, value: parseEther('2') });
    if (message.event === undefined && message.channel === 'large_transfers') resolve(data.toString());
  });
});
client.on('open', () => client.send(JSON.stringify({ event: 'subscribe', channel: 'large_transfers', address: recipient })));

console.log(`received ${await received}`);
client.close();
await app.close();
await explorer.close();
await chain.close();
