import { expect, it, vi } from 'vitest';
import { errorEnvelope, get, indexedToHead, type ApiContext } from './context.js';
import { callContract, deployEmitter, storeVerifiedEmitter } from './verified-emitter.js';

const UNKNOWN_HASH = `0x${'12'.repeat(32)}`;

/** `/transaction/:hash`, `/receipt`, `/logs`, `/token-transfers`, `/gettxinfo`, `/transaction/list`. */
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
        addressLabel: null,
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
        contractLabel: null,
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

  it("GET /transaction/list lists a block's transactions in block order and the newest newest first", async () => {
    const head = await indexedToHead(ctx());
    const { blockNumber } = (await get(ctx(), `/api/v1/transaction/${ctx().demo.transactions.transfer}`)).body.result;
    const block = (await get(ctx(), `/api/v1/block/getblock?blockno=${blockNumber}`)).body.result;
    const inBlock = (await get(ctx(), `/api/v1/transaction/list?blockno=${blockNumber}`)).body.result as any[];
    expect(inBlock.map((tx) => tx.hash)).toEqual(block.transactions);
    for (const tx of inBlock) expect(tx).toEqual((await get(ctx(), `/api/v1/transaction/${tx.hash}`)).body.result);

    // The newest: each block's transactions from its last, blocks from the head down.
    const expected: string[] = [];
    for (let n = head; n >= 0n && expected.length < 6; n--) {
      expected.push(...((await get(ctx(), `/api/v1/block/getblock?blockno=${n}`)).body.result.transactions as string[]).toReversed());
    }
    const newest = (await get(ctx(), '/api/v1/transaction/list?offset=6')).body.result as any[];
    expect(newest.map((tx) => tx.hash)).toEqual(expected.slice(0, 6));
    const second = (await get(ctx(), '/api/v1/transaction/list?page=2&offset=3')).body.result as any[];
    expect(second.map((tx) => tx.hash)).toEqual(expected.slice(3, 6));

    const unknown = await get(ctx(), '/api/v1/transaction/list?blockno=99999999');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual(errorEnvelope('Error! Block not found'));
    expect((await get(ctx(), '/api/v1/transaction/list?blockno=abc')).body).toEqual(errorEnvelope('Error! Invalid block number'));
    const deep = await get(ctx(), '/api/v1/transaction/list?page=101&offset=100');
    expect(deep.status).toBe(400);
    expect(deep.body).toEqual(errorEnvelope('Error! Invalid request: page: page × offset must be at most 10000'));
  });

  it('GET /transaction/:hash/token-transfers lists the tokens a transaction moved, each with its token and standard', async () => {
    await indexedToHead(ctx());
    const { demo } = ctx();
    const [from, to] = [demo.accounts[1]!.toLowerCase(), demo.accounts[3]!.toLowerCase()];
    const batch = (await get(ctx(), `/api/v1/transaction/${demo.transactions.multiBatchTransfer}/token-transfers`)).body.result as any[];
    expect(batch.map(({ token, standard, from: sender, to: recipient, tokenId, value, hash }) => ({ token, standard, sender, recipient, tokenId, value, hash }))).toEqual(
      [['2', '1'], ['3', '2']].map(([tokenId, value]) => ({
        token: demo.contracts.multiToken.toLowerCase(),
        standard: 'ERC-1155',
        sender: from,
        recipient: to,
        tokenId,
        value,
        hash: demo.transactions.multiBatchTransfer,
      })),
    );
    expect(batch[0].transaction).toEqual((await get(ctx(), `/api/v1/transaction/${demo.transactions.multiBatchTransfer}`)).body.result);
    const erc20 = (await get(ctx(), `/api/v1/transaction/${demo.transactions.transfer}/token-transfers`)).body.result as any[];
    expect(erc20).toMatchObject([{ standard: 'ERC-20', tokenSymbol: 'DEMO', tokenDecimal: '18', value: (1000n * 10n ** 18n).toString(), tokenId: null }]);
    expect((await get(ctx(), `/api/v1/transaction/${demo.transactions.nativeTransfer}/token-transfers`)).body.result).toEqual([]);
    const unknown = await get(ctx(), `/api/v1/transaction/${UNKNOWN_HASH}/token-transfers`);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual(errorEnvelope('Error! Transaction not found'));
  });
}
