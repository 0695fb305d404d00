import { expect, it } from 'vitest';
import { movePrice } from './chain-channels.js';
import type { ChannelContext } from './context.js';

/** Reorgs (`reorg` notice, `removed: true`) and `fromBlock` replay. */
export function reorgAndReplayTests(ctx: () => ChannelContext): void {
  it('fromBlock replays stored blocks, then live ones, with no gap and no duplicate while blocks keep arriving', async () => {
    const start = (await ctx().indexed()) - 40n;
    const client = await ctx().client();
    const mining = (async () => {
      for (let i = 0; i < 15; i++) await ctx().rpc('anvil_mine', ['0x1']);
    })();
    expect(await client.subscribe('blocks', { fromBlock: Number(start) })).toEqual({ event: 'subscribed', channel: 'blocks' });
    await mining;
    const head = await ctx().indexed();
    await client.next((m) => m.channel === 'blocks' && m.blockNumber === head.toString());
    const received = client.data('blocks');
    expect(received.map((m) => BigInt(m.blockNumber))).toEqual(Array.from({ length: Number(head - start + 1n) }, (_, i) => start + BigInt(i)));
    expect(received.map((m) => m.sequence)).toEqual(received.map((_, i) => i + 1));
  });

  it('fromBlock replays an address’s transactions from storage', async () => {
    const { chain } = ctx();
    const recipient = '0x00000000000000000000000000000000000b0b01';
    const base = await ctx().indexed();
    const hash = await chain.walletClients[6]!.sendTransaction({ to: recipient, value: 3n });
    await chain.publicClient.waitForTransactionReceipt({ hash });
    await ctx().mine();
    const client = await ctx().client();
    await client.subscribe('address_transactions', { address: recipient, fromBlock: base.toString() });
    expect(await client.next((m) => m.channel === 'address_transactions')).toMatchObject({ sequence: 1, address: recipient, data: { hash, to: recipient } });
  });

  it('fromBlock latest replays from the indexed head', async () => {
    const head = await ctx().indexed();
    const client = await ctx().client();
    expect(await client.subscribe('blocks', { fromBlock: 'latest' })).toEqual({ event: 'subscribed', channel: 'blocks' });
    expect(await client.next((m) => m.channel === 'blocks')).toMatchObject({ blockNumber: head.toString() });
  });

  it('refuses a fromBlock further back than the replay limit', async () => {
    const client = await ctx().client();
    expect(await client.subscribe('blocks', { fromBlock: 0 })).toEqual({ event: 'error', channel: 'blocks', message: expect.stringMatching(/^fromBlock is more than 50 blocks behind the indexed head/) });
  });

  it('on a reorg, blocks subscribers get the reorg notice and data sent from removed blocks comes again with removed: true', async () => {
    const { chain, demo } = ctx();
    const base = await ctx().indexed();
    const snapshot = await ctx().rpc<string>('evm_snapshot');
    const client = await ctx().client();
    await client.subscribe('blocks');
    await client.subscribe('address_transactions', { address: demo.accounts[3] });
    const hash = await chain.walletClients[2]!.sendTransaction({ to: demo.accounts[3], value: 1n });
    await chain.publicClient.waitForTransactionReceipt({ hash });
    const sentBlock = await client.next((m) => m.channel === 'blocks' && m.blockNumber === (base + 1n).toString());
    const sentTx = await client.next((m) => m.data?.hash === hash);

    await ctx().rpc('evm_revert', [snapshot]);
    await ctx().rpc('evm_increaseTime', [7]);
    await ctx().mine(3);
    const reorg = await client.next((m) => m.event === 'reorg');
    expect(reorg).toEqual({
      event: 'reorg',
      channel: 'blocks',
      data: { commonAncestor: { blockNumber: base.toString(), blockHash: (await chain.publicClient.getBlock({ blockNumber: base })).hash }, removedBlockHashes: [sentBlock.data.blockHash] },
    });
    const removedTx = await client.next((m) => m.removed === true && m.channel === 'address_transactions');
    expect(removedTx).toEqual({ ...sentTx, sequence: removedTx.sequence, removed: true });
    const removedBlock = client.messages.find((m) => m.removed === true && m.channel === 'blocks');
    expect(removedBlock).toEqual({ ...sentBlock, sequence: removedBlock!.sequence, removed: true });
    const replacement = await client.next((m) => m.channel === 'blocks' && m.blockNumber === (base + 1n).toString() && m.removed === undefined);
    expect(replacement.data.blockHash).not.toBe(sentBlock.data.blockHash);
  });

  it('on a reorg, a token_price sent from a removed block comes again with removed: true', async () => {
    await ctx().indexed();
    const snapshot = await ctx().rpc<string>('evm_snapshot');
    const client = await ctx().client();
    await client.subscribe('token_price', { address: ctx().demo.contracts.token.toLowerCase() });
    const swapBlock = await movePrice(ctx());
    const sent = await client.next((m) => m.channel === 'token_price' && m.blockNumber === swapBlock.toString());

    await ctx().rpc('evm_revert', [snapshot]);
    await ctx().rpc('evm_increaseTime', [7]);
    await ctx().mine(3);
    const removed = await client.next((m) => m.channel === 'token_price' && m.removed === true);
    expect(removed).toEqual({ ...sent, sequence: removed.sequence, removed: true });
  });
}
