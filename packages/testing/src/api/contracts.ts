import { toEventSelector } from 'viem';
import { expect, it } from 'vitest';
import { errorEnvelope, get, indexedToHead, type ApiContext } from './context.js';
import { callContract, deployEmitter, storeVerifiedEmitter } from './verified-emitter.js';

/** `/contract/:address`, `/abi`, `/events`, `/interactions`. */
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

  it('GET /contract/:address/events lists the contract’s logs as the node has them, decoding the standard events', async () => {
    const head = await indexedToHead(ctx());
    const token = ctx().demo.contracts.token;
    const logs = await ctx().chain.publicClient.getLogs({ address: token, fromBlock: 0n, toBlock: head });
    const { status, body } = await get(ctx(), `/api/v1/contract/${token}/events?sort=asc&offset=100`);
    expect(status).toBe(200);
    expect(body.result.map((e: { transactionHash: string; logIndex: string; topics: string[]; data: string; blockNumber: string }) => [e.transactionHash, e.logIndex, e.topics, e.data, e.blockNumber])).toEqual(
      logs.map((log) => [log.transactionHash, String(log.logIndex), log.topics, log.data, String(log.blockNumber)]),
    );
    const transfer = body.result.find((e: { eventName: string | null }) => e.eventName === 'Transfer');
    expect(Object.keys(transfer.decoded)).toEqual(['from', 'to', 'value']);
    expect(transfer.address).toBe(token.toLowerCase());

    const approval = toEventSelector('Approval(address,address,uint256)');
    const approvals = (await get(ctx(), `/api/v1/contract/${token}/events?topic0=${approval}`)).body.result as { eventName: string; topics: string[] }[];
    expect(approvals.length).toBe(logs.filter((log) => log.topics[0] === approval).length);
    expect(approvals.every((e) => e.eventName === 'Approval' && e.topics[0] === approval)).toBe(true);

    const newest = (await get(ctx(), `/api/v1/contract/${token}/events?offset=1`)).body.result;
    expect(newest).toEqual([body.result.at(-1)]);
    const block = logs[1]!.blockNumber!;
    const inBlock = (await get(ctx(), `/api/v1/contract/${token}/events?fromBlock=${block}&toBlock=${block}&sort=asc`)).body.result;
    expect(inBlock.map((e: { blockNumber: string }) => e.blockNumber)).toEqual(logs.filter((log) => log.blockNumber === block).map(() => String(block)));
  });

  it('GET /contract/:address/abi answers the verified ABI, and 404 until the source is verified; the record shows the source details at once', async () => {
    const emitter = await deployEmitter(ctx());
    const unverified = await get(ctx(), `/api/v1/contract/${emitter}/abi`);
    expect(unverified.status).toBe(404);
    expect(unverified.body).toEqual(errorEnvelope('Error! Contract source code not verified'));
    expect((await get(ctx(), `/api/v1/contract/${emitter}`)).body.result).toMatchObject({ verified: false, name: null, compiler: null, license: null });

    const record = await storeVerifiedEmitter(ctx(), emitter);
    const { status, body } = await get(ctx(), `/api/v1/contract/${emitter}/abi`);
    expect(status).toBe(200);
    expect(body).toEqual({ status: '1', message: 'OK', result: record.abi });
    expect(body.result.find((entry: { name?: string }) => entry.name === 'ping')).toMatchObject({
      type: 'function',
      inputs: [{ name: 'note', type: 'string' }],
      outputs: [{ name: 'n', type: 'uint256' }],
      stateMutability: 'nonpayable',
    });
    // The head has not moved: a verification shows without waiting for a block.
    expect((await get(ctx(), `/api/v1/contract/${emitter}`)).body.result).toMatchObject({
      address: emitter,
      name: 'EventEmitter',
      compiler: 'v0.8.37+commit.f401782d',
      optimization: true,
      runs: 200,
      verified: true,
      verifiedAt: record.verifiedAt,
      license: 'MIT',
      isProxy: false,
    });
    expect((await get(ctx(), `/api/v1/contract/${ctx().demo.accounts[9]}/abi`)).body).toEqual(errorEnvelope('Error! Contract source code not verified'));
    expect((await get(ctx(), '/api/v1/contract/0x1234/abi')).body).toEqual(errorEnvelope('Error! Invalid address format'));
  });

  it('GET /contract/:address/events decodes with the contract’s verified ABI once it is verified; anonymous events stay undecoded', async () => {
    const emitter = await deployEmitter(ctx());
    const abi = ctx().demo.abis.emitter;
    const key = `0x${'ab'.repeat(32)}`;
    await callContract(ctx(), emitter, abi, 'ping', ['first ping']);
    await callContract(ctx(), emitter, abi, 'store', [key, '0xc0ffee']);
    const url = `/api/v1/contract/${emitter}/events?sort=asc`;
    const before = (await get(ctx(), url)).body.result as { eventName: string | null; decoded: Record<string, string> }[];
    expect(before.map((event) => event.eventName)).toEqual([null, null, null]);

    await storeVerifiedEmitter(ctx(), emitter);
    const after = (await get(ctx(), url)).body.result as { eventName: string | null; decoded: Record<string, string> }[];
    expect(after.map(({ eventName, decoded }) => ({ eventName, decoded }))).toEqual([
      { eventName: 'Ping', decoded: { from: ctx().demo.accounts[0]!.toLowerCase(), n: '1', note: 'first ping' } },
      { eventName: 'Data', decoded: { key, value: '0xc0ffee' } },
      // `Stored` is anonymous: no selector topic says which event a log is.
      { eventName: null, decoded: {} },
    ]);
  });

  it('GET /contract/:address/events 400s a malformed topic0 and 404s an address without code', async () => {
    const bad = await get(ctx(), `/api/v1/contract/${ctx().demo.contracts.token}/events?topic0=0x1234`);
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/^Error! Invalid request: topic0: /);
    expect((await get(ctx(), `/api/v1/contract/${ctx().demo.accounts[9]}/events`)).body).toEqual(errorEnvelope('Error! Contract not found'));
  });

  it('GET /contract/:address/interactions lists the transactions between a user and the contract, newest first, paged', async () => {
    const head = await indexedToHead(ctx());
    const token = ctx().demo.contracts.token.toLowerCase();
    const user = ctx().demo.accounts[1]!.toLowerCase();
    const expected: string[] = [];
    for (let n = 0n; n <= head; n++) {
      const block = await ctx().chain.publicClient.getBlock({ blockNumber: n, includeTransactions: true });
      for (const tx of block.transactions) {
        const parties = [tx.from.toLowerCase(), tx.to?.toLowerCase()];
        if (parties.includes(user) && parties.includes(token)) expected.push(tx.hash);
      }
    }
    expect(expected.length).toBeGreaterThan(1);
    const { status, body } = await get(ctx(), `/api/v1/contract/${token}/interactions?address=${user}&offset=100`);
    expect(status).toBe(200);
    expect(body.result.map((tx: { hash: string }) => tx.hash)).toEqual(expected.reverse());
    expect((await get(ctx(), `/api/v1/contract/${token}/interactions?address=${user}&page=2&offset=1`)).body.result.map((tx: { hash: string }) => tx.hash)).toEqual([expected[1]]);
    expect((await get(ctx(), `/api/v1/contract/${token}/interactions?address=${ctx().demo.accounts[9]}`)).body.result).toEqual([]);
    expect((await get(ctx(), `/api/v1/contract/${ctx().demo.accounts[9]}/interactions?address=${user}`)).body).toEqual(errorEnvelope('Error! Contract not found'));
    expect((await get(ctx(), `/api/v1/contract/${token}/interactions?address=0x12`)).status).toBe(400);
  });
}
