import { encodeDeployData, encodeFunctionData, erc20Abi, parseAbi, type Hex } from 'viem';
import { expect, it } from 'vitest';
import { compileContracts, DEMO_SOURCES } from '@chainlens/devchain';
import { percentOf } from '@chainlens/core';
import { waitFor } from '../api/context.js';
import { startReorgRun, type ReorgRun, type ReorgSuiteOptions } from './reorg-run.js';

const MINT = parseAbi(['function mint(address to, uint256 amount)', 'function totalSupply() view returns (uint256)']);

/**
 * Reorgs that once left a cached record behind, each replayed alone: what was read at a block
 * number (or of an address) before a reorg must not be served after it.
 */
export function reorgReproTests(options: ReorgSuiteOptions): void {
  it('a token’s supply and its holders’ shares follow a reorg at the same height that replaces a mint', async () => {
    const run = await startReorgRun(options);
    try {
      const { demo } = run;
      const token = demo.contracts.token.toLowerCase() as Hex;
      const recipient = demo.accounts[7]!;
      const mint = (amount: bigint) => ({ from: demo.accounts[0], to: token, data: encodeFunctionData({ abi: MINT, functionName: 'mint', args: [recipient, amount] }) });
      await run.chain.publicClient.waitForTransactionReceipt({ hash: await run.rpc<Hex>('eth_sendTransaction', [mint(1_000n)]) });
      await run.chain.publicClient.waitForTransactionReceipt({ hash: await run.rpc<Hex>('eth_sendTransaction', [mint(1n)]) });
      await run.indexed();
      const before = await expectSupplyOfNode(run, token);
      // Read at this height, so whatever keeps it by height has it.
      expect((await run.get(`/api/v1/token/${token}/holders?offset=100`)).status).toBe(200);

      const replaced = await run.head();
      await run.rpc('anvil_reorg', [1, [[mint(500n), 0]]]);
      const after = await run.head();
      expect(after.number).toBe(replaced.number);
      expect(after.hash).not.toBe(replaced.hash);
      await run.indexed();
      expect(await expectSupplyOfNode(run, token)).toBe(before + 499n);
    } finally {
      await run.close();
    }
  }, 120_000);

  it('a token’s name follows a reorg that deploys another token at its address', async () => {
    const run = await startReorgRun(options);
    try {
      const deploy = await tokenDeployment(run);
      const token = await deployed(run, deploy('Alpha', 'ALF'));
      await run.indexed();
      await waitFor(async () => (await run.explorer.storage.getToken(token))?.metadata?.name === 'Alpha', 'the metadata of Alpha');
      expect((await run.get(`/api/v1/token/${token}`)).result).toMatchObject({ name: 'Alpha', symbol: 'ALF' });

      await run.rpc('anvil_reorg', [1, [[deploy('Beta', 'BET'), 0]]]);
      await expectTokenNamed(run, token, { name: 'Beta', symbol: 'BET' });
    } finally {
      await run.close();
    }
  }, 120_000);

  it('a token’s name the node gave just before a reorg that deploys another token at its address is neither kept nor stored', async () => {
    const run = await startReorgRun(options, true);
    try {
      const relay = run.relay!;
      const deploy = await tokenDeployment(run);
      await waitFor(async () => (await run.explorer.storage.listTokensWithoutMetadata(100)).length === 0, 'the demo tokens’ metadata');
      let release!: () => void;
      relay.holds.set('eth_call', new Promise<void>((resolve) => (release = resolve)));
      const asked = relay.methods.filter((method) => method === 'eth_call').length;
      const token = await deployed(run, deploy('Alpha', 'ALF'));
      // The metadata indexer asks the contract; the node's answer (Alpha's) is kept back until after the reorg.
      await waitFor(() => relay.methods.filter((method) => method === 'eth_call').length > asked, 'the metadata indexer asking Alpha');
      await run.rpc('anvil_reorg', [1, [[deploy('Beta', 'BET'), 0]]]);
      await run.indexed();
      relay.holds.delete('eth_call');
      release();
      await expectTokenNamed(run, token, { name: 'Beta', symbol: 'BET' });
    } finally {
      await run.close();
    }
  }, 120_000);
}

/** Deploys of `DemoToken` from dev account 9: at its next nonce, so a reorg's replacement lands at the same address. */
async function tokenDeployment(run: ReorgRun): Promise<(name: string, symbol: string) => object> {
  const { DemoToken } = await compileContracts({ ...DEMO_SOURCES });
  return (name, symbol) => ({ from: run.demo.accounts[9], gas: '0x2dc6c0', data: encodeDeployData({ abi: DemoToken!.abi, bytecode: DemoToken!.bytecode, args: [name, symbol, 1_000n] }) });
}

/** Sends the deployment `request`; resolves the contract's address once mined. */
async function deployed(run: ReorgRun, request: object): Promise<Hex> {
  const receipt = await run.chain.publicClient.waitForTransactionReceipt({ hash: await run.rpc<Hex>('eth_sendTransaction', [request]) });
  return receipt.contractAddress!.toLowerCase() as Hex;
}

/** Once the node's head is indexed and the token's metadata stored, both it and the token record say `identity`. */
async function expectTokenNamed(run: ReorgRun, token: Hex, identity: { name: string; symbol: string }): Promise<void> {
  await run.indexed();
  const stored = await waitFor(async () => (await run.explorer.storage.getToken(token))?.metadata ?? null, `the metadata of the token at ${token}`);
  expect(stored).toMatchObject(identity);
  expect((await run.get(`/api/v1/token/${token}`)).result).toMatchObject(identity);
}

/**
 * Checks the token record's supply and the holders' shares against the node at the indexed
 * head, and the top ten's share in the analytics; resolves the supply.
 */
export async function expectSupplyOfNode(run: ReorgRun, token: Hex): Promise<bigint> {
  const { number } = await run.head();
  const at = `0x${number.toString(16)}`;
  const supply = BigInt(await run.rpc<Hex>('eth_call', [{ to: token, data: encodeFunctionData({ abi: MINT, functionName: 'totalSupply' }) }, at]));
  const record = await run.get<{ totalSupply: string }>(`/api/v1/token/${token}`);
  expect(record.result.totalSupply, `${token} totalSupply at block ${number}`).toBe(supply.toString());
  const { holders } = (await run.get<{ holders: { address: Hex; balance: string; percentage: string }[] }>(`/api/v1/token/${token}/holders?offset=100`)).result;
  const balances = await Promise.all(
    holders.map(async (holder) => BigInt(await run.rpc<Hex>('eth_call', [{ to: token, data: encodeFunctionData({ abi: erc20Abi, functionName: 'balanceOf', args: [holder.address] }) }, at]))),
  );
  expect(holders.map(({ address, balance, percentage }) => ({ address, balance, percentage }))).toEqual(
    holders.map(({ address }, i) => ({ address, balance: balances[i]!.toString(), percentage: percentOf(balances[i]!, supply) })),
  );
  if (holders.length <= 100) {
    const top = balances.slice(0, 10).reduce((sum, balance) => sum + balance, 0n);
    const analytics = await run.get<{ holders: { top10Percentage: number | null } }>(`/api/v1/token/${token}/analytics`);
    expect(analytics.result.holders.top10Percentage, `${token} top10Percentage`).toBe(Number(percentOf(top, supply)));
  }
  return supply;
}
