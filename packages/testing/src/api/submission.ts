import { encodeFunctionData, keccak256, parseEther, serializeTransaction, type Hex } from 'viem';
import { expect, it } from 'vitest';
import { call, errorEnvelope, get, indexedToHead, waitFor, type ApiContext } from './context.js';

async function signedTransfer(context: ApiContext, accountIndex: number, value: bigint): Promise<Hex> {
  const account = context.chain.accounts[accountIndex]!;
  const client = context.chain.publicClient;
  const nonce = await client.getTransactionCount({ address: account.address, blockTag: 'pending' });
  const fees = await client.estimateFeesPerGas();
  return account.signTransaction({
    chainId: context.chain.chain.id,
    type: 'eip1559',
    to: context.chain.accounts[9]!.address,
    value,
    nonce,
    gas: 21_000n,
    maxFeePerGas: fees.maxFeePerGas * 2n,
    maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
  });
}

async function withoutAutomine<T>(context: ApiContext, work: () => Promise<T>): Promise<T> {
  await context.chain.publicClient.request({ method: 'evm_setAutomine' as never, params: [false] as never });
  try {
    return await work();
  } finally {
    await context.chain.publicClient.request({ method: 'evm_setAutomine' as never, params: [true] as never });
  }
}

async function mine(context: ApiContext, blocks = 1): Promise<void> {
  await context.chain.publicClient.request({ method: 'anvil_mine' as never, params: [`0x${blocks.toString(16)}`] as never });
}

const status = async (context: ApiContext, hash: string) => (await get(context, `/api/v1/transaction/status/${hash}`)).body.result?.status;

/** `/transaction/send`, `/estimate-gas`, `/pending`, `/status/:hash`. */
export function submissionTests(ctx: () => ApiContext): void {
  it('POST /transaction/send forwards a signed transaction; status goes pending → confirmed', async () => {
    await withoutAutomine(ctx(), async () => {
      const raw = await signedTransfer(ctx(), 6, parseEther('0.5'));
      const sent = await call(ctx(), 'POST', '/api/v1/transaction/send', { signedTransaction: raw });
      expect(sent.status).toBe(200);
      expect(sent.body.result).toEqual({ transactionHash: keccak256(raw) });
      expect(await status(ctx(), keccak256(raw))).toBe('pending');
      await mine(ctx());
      await waitFor(async () => (await status(ctx(), keccak256(raw))) === 'confirmed', 'confirmed status');
    });
  });

  it('POST /transaction/send refuses malformed and unsigned payloads before the node', async () => {
    const unsigned = serializeTransaction({ chainId: 31337, type: 'eip1559', to: ctx().demo.accounts[1]!, value: 1n, nonce: 0, gas: 21_000n, maxFeePerGas: 1n, maxPriorityFeePerGas: 1n });
    const cases: [unknown, string][] = [
      [{ signedTransaction: unsigned }, 'Error! Invalid request: signedTransaction: transaction is not signed'],
      [{ signedTransaction: '0xdeadbeef' }, 'Error! Invalid request: signedTransaction: not a valid serialized transaction'],
      [{ signedTransaction: 'hello' }, 'Error! Invalid request: signedTransaction: must be 0x-prefixed hex with whole bytes'],
      [{}, expect.stringMatching(/^Error! Invalid request: signedTransaction: /) as unknown as string],
      [[1, 2], expect.stringMatching(/^Error! Invalid request: /) as unknown as string],
    ];
    for (const [body, message] of cases) {
      const answer = await call(ctx(), 'POST', '/api/v1/transaction/send', body);
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual(errorEnvelope(message));
    }
  });

  it('POST /transaction/estimate-gas estimates a call and prices it', async () => {
    const answer = await call(ctx(), 'POST', '/api/v1/transaction/estimate-gas', {
      from: ctx().demo.accounts[0],
      to: ctx().demo.accounts[1],
      value: '1000',
    });
    expect(answer.status).toBe(200);
    const result = answer.body.result;
    expect(result.gasEstimate).toBe('21000');
    expect(BigInt(result.estimatedCost)).toBe(21_000n * BigInt(result.gasPrice));
    expect(Number(result.estimatedCostNative)).toBeCloseTo(Number(result.estimatedCost) / 1e18, 12);
  });

  it('POST /transaction/estimate-gas answers a revert with its decoded reason', async () => {
    const abi = ctx().demo.abis.reverter;
    const to = ctx().demo.contracts.reverter;
    const fail = await call(ctx(), 'POST', '/api/v1/transaction/estimate-gas', { to, data: encodeFunctionData({ abi, functionName: 'fail' }) });
    expect(fail.status).toBe(400);
    expect(fail.body).toEqual(errorEnvelope('Error! Transaction execution failed', { revertReason: 'Reverter: always fails' }));
    const custom = await call(ctx(), 'POST', '/api/v1/transaction/estimate-gas', { to, data: encodeFunctionData({ abi, functionName: 'failCustom' }) });
    expect(custom.body.result.revertReason).toMatch(/^0x[0-9a-f]{8}/);
  });

  it('POST /transaction/estimate-gas validates its body', async () => {
    const cases: [unknown, string][] = [
      [{ from: ctx().demo.accounts[0] }, 'Error! Invalid request: body: to or data is required'],
      [{ to: '0x1234' }, 'Error! Invalid address format'],
      [{ to: ctx().demo.accounts[1], value: '-1' }, 'Error! Invalid request: value: must be a non-negative decimal integer'],
      [{ to: ctx().demo.accounts[1], value: (2n ** 256n).toString() }, 'Error! Invalid request: value: must fit in uint256'],
      [{ to: ctx().demo.accounts[1], data: '0xabc' }, 'Error! Invalid request: data: must be 0x-prefixed hex with whole bytes'],
    ];
    for (const [body, message] of cases) {
      const answer = await call(ctx(), 'POST', '/api/v1/transaction/estimate-gas', body);
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual(errorEnvelope(message));
    }
  });

  it('GET /transaction/pending lists pool transactions, filters by address and clamps the limit', async () => {
    await withoutAutomine(ctx(), async () => {
      const hash = await ctx().chain.walletClients[7]!.sendTransaction({ to: ctx().demo.accounts[8]!, value: 5n, gas: 21_000n });
      const sender = ctx().demo.accounts[7]!.toLowerCase();
      const listed = await waitFor(async () => {
        const { body } = await get(ctx(), '/api/v1/transaction/pending');
        return (body.result as any[]).find((tx) => tx.hash === hash);
      }, 'the transaction in the pending list');
      expect(listed).toMatchObject({ hash, from: sender, to: ctx().demo.accounts[8]!.toLowerCase(), value: '5', gas: '21000' });
      expect(listed.submittedAt).toMatch(/^\d+$/);
      expect(((await get(ctx(), `/api/v1/transaction/pending?address=${sender}`)).body.result as any[]).map((tx) => tx.hash)).toContain(hash);
      expect((await get(ctx(), `/api/v1/transaction/pending?address=${ctx().demo.accounts[5]}`)).body.result).toEqual([]);
      expect((await get(ctx(), '/api/v1/transaction/pending?limit=500')).status).toBe(200);
      expect((await get(ctx(), '/api/v1/transaction/pending?limit=0')).status).toBe(400);
      expect((await get(ctx(), '/api/v1/transaction/pending?address=nope')).body).toEqual(errorEnvelope('Error! Invalid address format'));
      await mine(ctx());
    });
  });

  it('GET /transaction/status reports dropped for a transaction that left the pool unmined', async () => {
    await withoutAutomine(ctx(), async () => {
      const hash = await ctx().chain.walletClients[5]!.sendTransaction({ to: ctx().demo.accounts[4]!, value: 7n, gas: 21_000n });
      await waitFor(() => ctx().explorer.services.pending.lookup(hash)?.state === 'pending', 'the tracker to see it pending');
      expect(await status(ctx(), hash)).toBe('pending');
      await ctx().chain.publicClient.request({ method: 'anvil_dropTransaction' as never, params: [hash] as never });
      await waitFor(() => ctx().explorer.services.pending.lookup(hash)?.state === 'gone', 'the tracker to see it leave');
      await mine(ctx());
      await indexedToHead(ctx());
      await waitFor(async () => (await status(ctx(), hash)) === 'dropped', 'dropped status');
    });
  });

  it('GET /transaction/status reports failed, then finalized once the node finalizes the block', async () => {
    const { failed, transfer } = ctx().demo.transactions;
    expect(await status(ctx(), failed)).toBe('failed');
    await mine(ctx(), 80);
    await indexedToHead(ctx());
    await waitFor(async () => (await status(ctx(), transfer)) === 'finalized', 'finalized status');
    const answer = await get(ctx(), `/api/v1/transaction/status/${transfer}`);
    expect(answer.body.result).toMatchObject({ hash: transfer, status: 'finalized' });
    expect(answer.body.result.confirmations).toBeGreaterThan(80);
    expect((await get(ctx(), `/api/v1/transaction/status/0x${'34'.repeat(32)}`)).status).toBe(404);
    expect((await get(ctx(), '/api/v1/transaction/status/0x12')).status).toBe(400);
  });
}
