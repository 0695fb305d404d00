import { parseEther, type Address, type Hash } from 'viem';
import { expect, it } from 'vitest';
import type { ChannelContext } from './context.js';

/** REST's answer at `path` (the envelope's result). */
async function rest(context: ChannelContext, path: string): Promise<any> {
  const response = await fetch(`${context.url}${path}`);
  return ((await response.json()) as { result: unknown }).result;
}

/** Sends `value` wei from dev account `from` to `to` and waits for the receipt. */
async function pay(context: ChannelContext, from: number, to: Address, value = 1_000n): Promise<Hash> {
  const hash = await context.chain.walletClients[from]!.sendTransaction({ to, value });
  await context.chain.publicClient.waitForTransactionReceipt({ hash });
  return hash;
}

/** Swaps on the demo pool so the DEMO price moves; resolves the swap's block number. */
export async function movePrice(context: ChannelContext): Promise<bigint> {
  const { chain, demo } = context;
  const wallet = chain.walletClients[0]!;
  const sent = await wallet.writeContract({ address: demo.contracts.quoteToken, abi: demo.abis.quoteToken, functionName: 'transfer', args: [demo.contracts.dexPair, parseEther('1000')] });
  await chain.publicClient.waitForTransactionReceipt({ hash: sent });
  const token0 = (await chain.publicClient.readContract({ address: demo.contracts.dexPair, abi: demo.abis.dexPair, functionName: 'token0' })) as Address;
  const out = token0.toLowerCase() === demo.contracts.token.toLowerCase() ? [parseEther('1'), 0n] : [0n, parseEther('1')];
  const swap = await wallet.writeContract({ address: demo.contracts.dexPair, abi: demo.abis.dexPair, functionName: 'swap', args: [...out, demo.accounts[0]] });
  return (await chain.publicClient.waitForTransactionReceipt({ hash: swap })).blockNumber;
}

/** Every built-in channel's payload, shaped as REST shapes the same record. */
export function chainChannelTests(ctx: () => ChannelContext): void {
  it('blocks: each new block as {blockNumber, blockHash, timestamp, transactionCount, gasUsed, miner}, with block number and sequence', async () => {
    const client = await ctx().client();
    await client.subscribe('blocks');
    const head = await ctx().mine(2);
    const first = await client.next((m) => m.channel === 'blocks' && m.blockNumber === (head - 1n).toString());
    const second = await client.next((m) => m.channel === 'blocks' && m.blockNumber === head.toString());
    expect(second.sequence).toBe(first.sequence + 1);
    const block = await rest(ctx(), `/api/v1/block/getblock?blockno=${head}`);
    expect(second).toEqual({
      sequence: first.sequence + 1,
      channel: 'blocks',
      blockNumber: head.toString(),
      data: { blockNumber: block.blockNumber, blockHash: block.hash, timestamp: block.timestamp, transactionCount: block.transactionCount, gasUsed: block.gasUsed, miner: block.miner },
    });
  });

  it('transactions and address_transactions: a subscriber to an address gets exactly the transactions from or to it', async () => {
    const { accounts } = ctx().demo;
    const watched = accounts[7]!.toLowerCase();
    const everything = await ctx().client();
    const one = await ctx().client();
    await everything.subscribe('transactions');
    await one.subscribe('address_transactions', { address: watched });
    const incoming = await pay(ctx(), 6, accounts[7]!);
    const unrelated = await pay(ctx(), 8, accounts[9]!);
    const outgoing = await pay(ctx(), 7, accounts[8]!);
    await ctx().indexed();
    const all = await everything.next((m) => m.data?.hash === outgoing);
    expect(everything.data('transactions').map((m) => m.data.hash)).toEqual([incoming, unrelated, outgoing]);
    await one.next((m) => m.data?.hash === outgoing);
    expect(one.data('address_transactions').map((m) => m.data.hash)).toEqual([incoming, outgoing]);
    const record = await rest(ctx(), `/api/v1/transaction/${outgoing}`);
    const { confirmations: _c, ...shape } = record;
    expect(all).toMatchObject({ channel: 'transactions', blockNumber: record.blockNumber, data: shape });
    expect(one.data('address_transactions')[1]).toMatchObject({ channel: 'address_transactions', address: watched, blockNumber: record.blockNumber, data: shape });
  });

  it('token_transfers: the token transfer record REST lists, for the token subscribed only', async () => {
    const { demo, chain } = ctx();
    const client = await ctx().client();
    await client.subscribe('token_transfers', { address: demo.contracts.token });
    const hash = await chain.walletClients[1]!.writeContract({ address: demo.contracts.token, abi: demo.abis.token, functionName: 'transfer', args: [demo.accounts[6], 5n] });
    await chain.publicClient.waitForTransactionReceipt({ hash });
    const other = await chain.walletClients[0]!.writeContract({ address: demo.contracts.quoteToken, abi: demo.abis.quoteToken, functionName: 'transfer', args: [demo.accounts[6], 5n] });
    await chain.publicClient.waitForTransactionReceipt({ hash: other });
    await ctx().indexed();
    const message = await client.next((m) => m.channel === 'token_transfers');
    const listed = await rest(ctx(), `/api/v1/token/${demo.contracts.token}/transfers?page=1&offset=1&sort=desc`);
    expect(message).toMatchObject({ channel: 'token_transfers', address: demo.contracts.token.toLowerCase(), blockNumber: listed[0].blockNumber, data: listed[0] });
    expect(message.data.hash).toBe(hash);
    await ctx().mine();
    expect(client.data('token_transfers')).toHaveLength(1);
  });

  it('pending_transactions: a transaction as it enters the pool, as GET /transaction/pending shapes it', async () => {
    const { chain, demo } = ctx();
    const client = await ctx().client();
    await client.subscribe('pending_transactions');
    await ctx().rpc('evm_setAutomine', [false]);
    try {
      const hash = await chain.walletClients[4]!.sendTransaction({ to: demo.accounts[5], value: 7n });
      const message = await client.next((m) => m.channel === 'pending_transactions' && m.data.hash === hash);
      expect(message.data).toMatchObject({ hash, from: demo.accounts[4]!.toLowerCase(), to: demo.accounts[5]!.toLowerCase(), value: '7' });
      expect(Object.keys(message.data).sort()).toEqual(['from', 'gas', 'gasPrice', 'hash', 'nonce', 'submittedAt', 'to', 'value']);
    } finally {
      await ctx().rpc('evm_setAutomine', [true]);
      await ctx().mine();
    }
  });

  it('token_price: a swap that moves the DEMO price sends {address, priceUSD, change24h, timestamp}', async () => {
    const client = await ctx().client();
    const token = ctx().demo.contracts.token.toLowerCase();
    await client.subscribe('token_price', { address: token });
    const swapBlock = await movePrice(ctx());
    const message = await client.next((m) => m.channel === 'token_price' && m.blockNumber === swapBlock.toString());
    const current = await rest(ctx(), `/api/v1/token/${token}`);
    expect(message).toMatchObject({ channel: 'token_price', address: token, data: { address: token, priceUSD: current.priceUSD, timestamp: expect.stringMatching(/^\d+$/) } });
    expect(Object.keys(message.data).sort()).toEqual(['address', 'change24h', 'priceUSD', 'timestamp']);
  });

  it('validators, consensus and finality: records as GET /blockchain/* answers them, as blocks arrive', async () => {
    const client = await ctx().client();
    for (const channel of ['validators', 'consensus', 'finality']) await client.subscribe(channel);
    const head = await ctx().mine(2);
    const finality = await client.next((m) => m.channel === 'finality');
    const validator = await client.next((m) => m.channel === 'validators');
    const consensus = await client.next((m) => m.channel === 'consensus');
    expect(finality.blockNumber).toBe(finality.data.blockNumber);
    expect(finality.data).toMatchObject({ isFinalized: true });
    expect(BigInt(finality.data.blockNumber)).toBeLessThan(head);
    const validators = await rest(ctx(), '/api/v1/blockchain/validators');
    expect(validators.validators.map((v: { address: string }) => v.address)).toContain(validator.data.address);
    expect(Object.keys(validator.data).sort()).toEqual(Object.keys(validators.validators[0]).sort());
    const info = await rest(ctx(), '/api/v1/blockchain/consensus/info');
    expect(Object.keys(consensus.data).sort()).toEqual(Object.keys(info).sort());
  });
}
