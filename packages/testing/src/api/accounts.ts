import type { Address } from 'viem';
import { expect, it } from 'vitest';
import { chainTransfers } from './chain-transfers.js';
import { call, errorEnvelope, get, indexedToHead, signUp, type ApiContext } from './context.js';

/** `/account/balance`, `/account/txlist`, `/account/token-transfers`, `/account/tokens` and `/account/summary`. */
export function accountTests(ctx: () => ApiContext): void {
  it('GET /account/balance equals the node balance at the indexed block', async () => {
    await indexedToHead(ctx());
    const address = ctx().demo.accounts[2]!;
    const { body } = await get(ctx(), `/api/v1/account/balance?address=${address.toUpperCase().replace('0X', '0x')}`);
    const at = BigInt(body.result.blockNumber);
    const balance = await ctx().chain.publicClient.getBalance({ address, blockNumber: at });
    expect(body.result).toEqual({ address: address.toLowerCase(), label: null, balance: balance.toString(), blockNumber: at.toString() });
  });

  it('GET /account/balance rejects a missing or malformed address', async () => {
    for (const query of ['', '?address=0x123', '?address=zz']) {
      const answer = await get(ctx(), `/api/v1/account/balance${query}`);
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual(errorEnvelope('Error! Invalid address format'));
    }
  });

  it('GET /account/txlist lists an address in block order, pages and filters by block range', async () => {
    await indexedToHead(ctx());
    const address = ctx().demo.accounts[1]!.toLowerCase();
    const all = (await get(ctx(), `/api/v1/account/txlist?address=${address}&offset=1000`)).body.result as any[];
    expect(all.length).toBeGreaterThan(2);
    for (const tx of all) expect([tx.from, tx.to]).toContain(address);
    const blocks = all.map((tx) => Number(tx.blockNumber));
    expect(blocks).toEqual([...blocks].sort((a, b) => a - b));

    const desc = (await get(ctx(), `/api/v1/account/txlist?address=${address}&sort=desc&offset=1000`)).body.result as any[];
    expect(desc.map((tx) => tx.hash)).toEqual([...all].reverse().map((tx) => tx.hash));

    const page2 = (await get(ctx(), `/api/v1/account/txlist?address=${address}&page=2&offset=2`)).body.result as any[];
    expect(page2.map((tx) => tx.hash)).toEqual(all.slice(2, 4).map((tx) => tx.hash));

    const from = blocks[1]!;
    const ranged = (await get(ctx(), `/api/v1/account/txlist?address=${address}&startblock=${from}&endblock=${from}`)).body.result as any[];
    expect(ranged.map((tx) => tx.hash)).toEqual(all.filter((tx) => Number(tx.blockNumber) === from).map((tx) => tx.hash));
  });

  it('GET /account/txlist clamps offset at 1000 and rejects zero, negative, fractional and unknown sort', async () => {
    const address = ctx().demo.accounts[0];
    expect((await get(ctx(), `/api/v1/account/txlist?address=${address}&offset=50000`)).status).toBe(200);
    for (const bad of ['offset=0', 'offset=-5', 'page=1.5', 'page=0', 'sort=up', 'startblock=x']) {
      const answer = await get(ctx(), `/api/v1/account/txlist?address=${address}&${bad}`);
      expect(answer.status, bad).toBe(400);
      expect(answer.body.status).toBe('0');
    }
  });

  const bearer = async () => (await signUp(ctx())).bearer;

  it('GET /account/summary agrees with the chain: balance, code, and token transfers decoded by viem', async () => {
    const head = await indexedToHead(ctx());
    const headers = await bearer();
    const logs = await ctx().chain.publicClient.getLogs({ fromBlock: 0n, toBlock: head });
    const transfers = logs.flatMap(chainTransfers);
    const { demo } = ctx();
    const subjects = [...demo.accounts.slice(0, 6), demo.contracts.token, demo.contracts.multiToken, `0x${'00'.repeat(20)}` as Address];
    let withTransfers = 0;
    for (const subject of subjects) {
      const address = subject.toLowerCase() as Address;
      const answer = await call(ctx(), 'GET', `/api/v1/account/summary?address=${subject}`, undefined, headers);
      expect(answer.status, address).toBe(200);
      const txs = (await get(ctx(), `/api/v1/account/txlist?address=${address}&offset=1000`)).body.result as { timestamp: string }[];
      const code = await ctx().chain.publicClient.getCode({ address, blockNumber: head });
      const tokenTransferCount = transfers.filter(({ from, to }) => from === address || to === address).length;
      if (tokenTransferCount > 0) withTransfers++;
      expect(answer.body.result, address).toEqual({
        address,
        label: null,
        balance: (await ctx().chain.publicClient.getBalance({ address, blockNumber: head })).toString(),
        transactionCount: txs.length,
        tokenTransferCount,
        firstSeen: txs[0]?.timestamp ?? null,
        lastSeen: txs.at(-1)?.timestamp ?? null,
        isContract: code !== undefined && code !== '0x',
      });
    }
    expect(withTransfers).toBeGreaterThanOrEqual(6);
  });

  it('GET /account/summary needs a JWT or an API key and a well-formed address', async () => {
    const address = ctx().demo.accounts[1]!;
    const anonymous = await get(ctx(), `/api/v1/account/summary?address=${address}`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual(errorEnvelope('Unauthorized'));
    const headers = await bearer();
    const key = (await call(ctx(), 'POST', '/api/v1/auth/api-keys', { name: 'summary' }, headers)).body.result.key as string;
    expect((await call(ctx(), 'GET', `/api/v1/account/summary?address=${address}`, undefined, { 'x-api-key': key })).status).toBe(200);
    for (const query of ['', '?address=0x12', `?address=${address}00`]) {
      const answer = await call(ctx(), 'GET', `/api/v1/account/summary${query}`, undefined, headers);
      expect(answer.status, query).toBe(400);
      expect(answer.body).toEqual(errorEnvelope('Error! Invalid address format'));
    }
  });

  it('GET /account/token-transfers lists the transfers of every standard to and from an address, newest first, paged', async () => {
    await indexedToHead(ctx());
    const address = ctx().demo.accounts[3]!.toLowerCase();
    const all = (await get(ctx(), `/api/v1/account/token-transfers?address=${address}&offset=100`)).body.result as any[];
    expect(new Set(all.map((transfer) => transfer.standard))).toEqual(new Set(['ERC-20', 'ERC-721', 'ERC-1155']));
    for (const transfer of all) {
      expect([transfer.from, transfer.to]).toContain(address);
      expect(transfer.transaction.hash).toBe(transfer.hash);
    }
    const order = all.map((transfer) => [Number(transfer.blockNumber), Number(transfer.logIndex)]);
    expect(order).toEqual([...order].sort((a, b) => b[0]! - a[0]! || b[1]! - a[1]!));
    const stored = await ctx().explorer.storage.listAddressTokenTransfers({ address: address as Address, page: 1, offset: 100, sort: 'desc' });
    expect(all.map((transfer) => `${transfer.hash}:${transfer.logIndex}:${transfer.tokenId}`)).toEqual(stored.map((t) => `${t.transactionHash}:${t.logIndex}:${t.tokenId}`));

    const asc = (await get(ctx(), `/api/v1/account/token-transfers?address=${address}&offset=100&sort=asc`)).body.result as any[];
    expect(asc.map((transfer) => transfer.hash)).toEqual(all.map((transfer) => transfer.hash).toReversed());
    const page2 = (await get(ctx(), `/api/v1/account/token-transfers?address=${address}&page=2&offset=2`)).body.result as any[];
    expect(page2).toEqual(all.slice(2, 4));
    expect((await get(ctx(), '/api/v1/account/token-transfers?address=0x123')).body).toEqual(errorEnvelope('Error! Invalid address format'));
  });

  it('GET /account/tokens lists the tokens an address holds with their balances on the chain', async () => {
    await indexedToHead(ctx());
    const { demo, chain } = ctx();
    const address = demo.accounts[3]!;
    const held = (await get(ctx(), `/api/v1/account/tokens?address=${address}`)).body.result as any[];
    const balanceOf = { type: 'function', name: 'balanceOf', stateMutability: 'view', inputs: [{ name: 'owner', type: 'address' }], outputs: [{ name: '', type: 'uint256' }] } as const;
    const erc20 = await chain.publicClient.readContract({ address: demo.contracts.token, abi: [balanceOf], functionName: 'balanceOf', args: [address] });
    const nfts = await chain.publicClient.readContract({ address: demo.contracts.nft, abi: [balanceOf], functionName: 'balanceOf', args: [address] });
    const expected = [
      { token: demo.contracts.token.toLowerCase(), name: 'Demo Token', symbol: 'DEMO', decimals: '18', standard: 'ERC-20', balance: erc20.toString() },
      { token: demo.contracts.nft.toLowerCase(), standard: 'ERC-721', balance: nfts.toString(), decimals: null },
    ];
    for (const holding of expected) expect(held).toContainEqual(expect.objectContaining(holding));
    expect(held.find((holding) => holding.token === demo.contracts.multiToken.toLowerCase())).toMatchObject({ standard: 'ERC-1155' });
    expect(held.map((holding) => holding.token)).toEqual(held.map((holding) => holding.token).sort());
    const second = (await get(ctx(), `/api/v1/account/tokens?address=${address}&page=2&offset=1`)).body.result;
    expect(second).toEqual(held.slice(1, 2));
    const nobody = `0x${'ab'.repeat(20)}`;
    expect((await get(ctx(), `/api/v1/account/tokens?address=${nobody}`)).body.result).toEqual([]);
    expect((await get(ctx(), '/api/v1/account/tokens?address=nope')).body).toEqual(errorEnvelope('Error! Invalid address format'));
  });
}
