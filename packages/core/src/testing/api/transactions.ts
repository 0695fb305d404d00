import { expect, it, vi } from 'vitest';
import { errorEnvelope, get, indexedToHead, type ApiContext } from './context.js';
import { callContract, deployEmitter, storeVerifiedEmitter } from './verified-emitter.js';

const UNKNOWN_HASH = `0x${'12'.repeat(32)}`;

/** `/transaction/:hash`, `/receipt`, `/logs`, `/gettxinfo`. */
export function transactionTests(ctx: () => ApiContext): void {
  it('GET /transaction/:hash equals the node transaction and receipt', async () => {
    const hash = ctx().demo.transactions.transfer;
    const [tx, receipt] = await Promise.all([
      ctx().chain.publicClient.getTransaction({ hash }),
      ctx().chain.publicClient.getTransactionReceipt({ hash }),
    ]);
    const { status, body } = await get(ctx(), `/api/v1/transaction/${hash}`);
    expect(status).toBe(200);
    expect(body.result).toMatchObject({
      hash,
      blockNumber: tx.blockNumber!.toString(),
      blockHash: tx.blockHash,
      from: tx.from.toLowerCase(),
      to: tx.to!.toLowerCase(),
      value: tx.value.toString(),
      gas: tx.gas.toString(),
      gasPrice: receipt.effectiveGasPrice.toString(),
      gasUsed: receipt.gasUsed.toString(),
      nonce: String(tx.nonce),
      input: tx.input,
      transactionIndex: String(tx.transactionIndex),
      isError: '0',
      txreceipt_status: '1',
    });
    expect(Number(body.result.confirmations)).toBeGreaterThanOrEqual(1);
    expect(body.result.timestamp).toMatch(/^\d+$/);
  });

  it('a repeated GET /transaction/:hash (served from the response cache) follows the head: a new block adds a confirmation', async () => {
    const url = `/api/v1/transaction/${ctx().demo.transactions.transfer}`;
    await indexedToHead(ctx());
    const before = Number((await get(ctx(), url)).body.result.confirmations);
    expect(Number((await get(ctx(), url)).body.result.confirmations)).toBe(before);
    const hash = await ctx().chain.walletClient.sendTransaction({ to: ctx().demo.accounts[7]!, value: 1n });
    await ctx().chain.publicClient.waitForTransactionReceipt({ hash, pollingInterval: 10 });
    await indexedToHead(ctx());
    expect(Number((await get(ctx(), url)).body.result.confirmations)).toBe(before + 1);
  });

  it('GET /transaction/:hash rejects a malformed hash and 404s an unknown one', async () => {
    for (const bad of ['0x1234', 'abc', `0x${'zz'.repeat(32)}`, `${'12'.repeat(33)}`]) {
      const answer = await get(ctx(), `/api/v1/transaction/${bad}`);
      expect(answer.status, bad).toBe(400);
      expect(answer.body).toEqual(errorEnvelope('Error! Invalid transaction hash format'));
    }
    const missing = await get(ctx(), `/api/v1/transaction/${UNKNOWN_HASH}`);
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual(errorEnvelope('Error! Transaction not found'));
  });

  it('GET /transaction/:hash/receipt equals the node receipt, failures included', async () => {
    const { failed, deployments } = ctx().demo.transactions;
    const chainReceipt = await ctx().chain.publicClient.getTransactionReceipt({ hash: deployments.token });
    const { body } = await get(ctx(), `/api/v1/transaction/${deployments.token}/receipt`);
    expect(body.result).toMatchObject({
      transactionHash: deployments.token,
      contractAddress: chainReceipt.contractAddress!.toLowerCase(),
      to: null,
      cumulativeGasUsed: chainReceipt.cumulativeGasUsed.toString(),
      logsBloom: chainReceipt.logsBloom,
      status: '1',
    });
    expect(body.result.logs).toHaveLength(chainReceipt.logs.length);
    expect((await get(ctx(), `/api/v1/transaction/${failed}/receipt`)).body.result.status).toBe('0');
    expect((await get(ctx(), `/api/v1/transaction/${UNKNOWN_HASH}/receipt`)).status).toBe(404);
  });

  it('GET /transaction/:hash/logs returns raw logs and, with decode=true, decoded token events', async () => {
    const { transfer, multiBatchTransfer } = ctx().demo.transactions;
    const chainReceipt = await ctx().chain.publicClient.getTransactionReceipt({ hash: transfer });
    const raw = await get(ctx(), `/api/v1/transaction/${transfer}/logs`);
    expect(raw.body.result).toEqual(
      chainReceipt.logs.map((log) => ({
        address: log.address.toLowerCase(),
        topics: log.topics,
        data: log.data,
        blockNumber: log.blockNumber.toString(),
        transactionHash: log.transactionHash,
        transactionIndex: String(log.transactionIndex),
        blockHash: log.blockHash,
        logIndex: String(log.logIndex),
        removed: false,
      })),
    );
    const decoded = await get(ctx(), `/api/v1/transaction/${transfer}/logs?decode=true`);
    expect(decoded.body.result[0]).toMatchObject({
      eventName: 'Transfer',
      eventSignature: 'Transfer(address,address,uint256)',
      contractAddress: ctx().demo.contracts.token.toLowerCase(),
      parameters: { from: ctx().demo.accounts[0]!.toLowerCase(), to: expect.stringMatching(/^0x[0-9a-f]{40}$/), value: expect.stringMatching(/^\d+$/) },
    });
    const batch = await get(ctx(), `/api/v1/transaction/${multiBatchTransfer}/logs?decode=true`);
    expect(batch.body.result[0]).toMatchObject({
      eventName: 'TransferBatch',
      eventSignature: 'TransferBatch(address,address,address,uint256[],uint256[])',
    });
    expect(JSON.parse(batch.body.result[0].parameters.ids)).toEqual(expect.arrayContaining([expect.stringMatching(/^\d+$/)]));
    expect((await get(ctx(), `/api/v1/transaction/${transfer}/logs?decode=maybe`)).status).toBe(400);
  });

  it('GET /transaction/:hash/logs?decode=true leaves events without a known ABI undecoded', async () => {
    const { body } = await get(ctx(), `/api/v1/transaction/${ctx().demo.transactions.ping}/logs?decode=true`);
    expect(body.result.length).toBeGreaterThan(0);
    expect(body.result[0]).toMatchObject({ eventName: null, eventSignature: null, parameters: {} });
  });

  it('GET /transaction/:hash/logs?decode=true decodes with the emitter’s verified ABI and names the contract', async () => {
    const emitter = await deployEmitter(ctx());
    const caller = ctx().demo.contracts.caller.toLowerCase();
    // The call goes to Caller; the log comes from the emitter it calls.
    const hash = await callContract(ctx(), ctx().demo.contracts.caller, ctx().demo.abis.caller, 'callPing', [emitter, 'nested ping']);
    const url = `/api/v1/transaction/${hash}/logs?decode=true`;
    expect((await get(ctx(), url)).body.result).toMatchObject([{ eventName: null, contractAddress: emitter, contractName: null }]);

    await storeVerifiedEmitter(ctx(), emitter);
    expect((await get(ctx(), url)).body.result).toEqual([
      {
        eventName: 'Ping',
        eventSignature: 'Ping(address,uint256,string)',
        parameters: { from: caller, n: '1', note: 'nested ping' },
        contractAddress: emitter,
        contractName: 'EventEmitter',
        logIndex: '0',
      },
    ]);
  });

  it('GET /transaction/:hash/logs?decode=true reads the verified records of all its emitters in one storage call', async () => {
    const { swap } = ctx().demo.transactions;
    const { logs } = await ctx().chain.publicClient.getTransactionReceipt({ hash: swap });
    const emitters = [...new Set(logs.map((log) => log.address.toLowerCase()))];
    expect(logs.length).toBeGreaterThan(emitters.length);
    expect(emitters.length).toBeGreaterThan(1);
    const read = vi.spyOn(ctx().explorer.storage, 'getVerifiedContracts');
    try {
      const { body } = await get(ctx(), `/api/v1/transaction/${swap}/logs?decode=true`);
      expect(body.result.map((log: { eventName: string }) => log.eventName)).toEqual(['Transfer', 'Sync', 'Swap']);
      expect(read).toHaveBeenCalledTimes(1);
      expect([...read.mock.calls[0]![0]].sort()).toEqual(emitters.sort());
    } finally {
      read.mockRestore();
    }
  });

  it('GET /transaction/gettxinfo adds the outcome, the decoded revert reason and logs', async () => {
    const { failed, failedPanic, transfer } = ctx().demo.transactions;
    const bad = await get(ctx(), `/api/v1/transaction/gettxinfo?txhash=${failed}`);
    expect(bad.body.result).toMatchObject({ hash: failed, success: false, isError: '1', revertReason: 'Reverter: always fails', logs: [] });
    const panic = await get(ctx(), `/api/v1/transaction/gettxinfo?txhash=${failedPanic}`);
    expect(panic.body.result.revertReason).toMatch(/^Panic\(0x12\)/);
    const good = await get(ctx(), `/api/v1/transaction/gettxinfo?txhash=${transfer}`);
    expect(good.body.result).toMatchObject({ hash: transfer, success: true, revertReason: null });
    expect(good.body.result.logs.length).toBeGreaterThan(0);
    expect((await get(ctx(), '/api/v1/transaction/gettxinfo')).status).toBe(400);
    expect((await get(ctx(), `/api/v1/transaction/gettxinfo?txhash=${UNKNOWN_HASH}`)).status).toBe(404);
  });
}
