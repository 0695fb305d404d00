import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import {
  createPublicClient,
  encodeFunctionData,
  erc20Abi,
  erc721Abi,
  http,
  parseEther,
  parseEventLogs,
  type Address,
  type PublicClient,
} from 'viem';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AnvilStartError,
  compileContracts,
  createTestChain,
  deployDemo,
  DEMO_SOURCES,
  fillBlocks,
  startAnvil,
  startDemoActivity,
  type AnvilInstance,
  type DemoDeployment,
} from './index.js';
import { rpcCall } from './rpc.js';

/** Polls `check` until it is truthy; no fixed sleeps. */
async function waitFor(check: () => Promise<boolean> | boolean, what: string): Promise<void> {
  const timeoutMs = 20_000;
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** Whether `pid` runs; a zombie (exited, not yet reaped by a non-reaping PID 1) counts as gone. */
function isAlive(pid: number): boolean {
  try {
    if (/\) Z /.test(readFileSync(`/proc/${pid}/stat`, 'utf8'))) return false;
  } catch {
    // no /proc (macOS) or no such process: fall through to signal 0
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

describe('devchain on a real anvil', () => {
  let stateDir: string;
  let anvil: AnvilInstance;
  let demo: DemoDeployment;
  let client: PublicClient;

  beforeAll(async () => {
    stateDir = mkdtempSync(join(tmpdir(), 'chainlens-devchain-'));
    anvil = await startAnvil({ statePath: join(stateDir, 'state.json') });
    demo = await deployDemo(anvil);
    // cacheTime 0: viem otherwise reuses a block number up to one polling interval old.
    client = createPublicClient({ transport: http(anvil.rpcUrl), pollingInterval: 50, cacheTime: 0 });
  });

  afterAll(async () => {
    await anvil?.stop();
    rmSync(stateDir, { recursive: true, force: true });
  });

  it('answers JSON-RPC on the chosen port', async () => {
    expect(anvil.rpcUrl).toBe(`http://127.0.0.1:${anvil.port}`);
    expect(await client.getChainId()).toBe(31337);
    expect(isAlive(anvil.pid)).toBe(true);
  });

  it('serves a second compilation of the same sources from the disk cache', async () => {
    const started = performance.now();
    const compiled = await compileContracts({ ...DEMO_SOURCES });
    expect(performance.now() - started).toBeLessThan(1_000); // a cold solc-js run takes seconds
    const names = ['DemoToken', 'DemoNFT', 'DemoMultiToken', 'EventEmitter', 'Reverter', 'Caller', 'Child'];
    expect(Object.keys(compiled)).toEqual(expect.arrayContaining(names));
    const code = await client.getCode({ address: demo.contracts.emitter });
    expect(code).toBe(compiled.EventEmitter?.deployedBytecode);
  });

  it('rejects invalid Solidity with the compiler message', async () => {
    const broken = compileContracts({ 'Broken.sol': 'contract Broken { function f( }' });
    await expect(broken).rejects.toThrow(/ParserError/);
  });

  it('deploys the demo contracts and leaves the scripted ERC-20 balances', async () => {
    const token = { address: demo.contracts.token, abi: erc20Abi } as const;
    const balances = await Promise.all(
      demo.accounts
        .slice(0, 5)
        .map((account) => client.readContract({ ...token, functionName: 'balanceOf', args: [account] })),
    );
    expect(balances).toEqual(['998450', '990', '450', '250', '10'].map((amount) => parseEther(amount)));
    expect(await client.readContract({ ...token, functionName: 'totalSupply' })).toBe(parseEther('1000150'));
    expect(await client.readContract({ ...token, functionName: 'decimals' })).toBe(18);
  });

  it('leaves the scripted NFT owners and ERC-1155 balances', async () => {
    const [a0, a1, a2, a3] = demo.accounts as [Address, Address, Address, Address];
    const nft = { address: demo.contracts.nft, abi: erc721Abi } as const;
    const owners = await Promise.all(
      [1n, 2n, 3n].map((tokenId) => client.readContract({ ...nft, functionName: 'ownerOf', args: [tokenId] })),
    );
    expect(owners).toEqual([a0, a3, a2]);
    const balances = await client.readContract({
      address: demo.contracts.multiToken,
      abi: demo.abis.multiToken,
      functionName: 'balanceOfBatch',
      args: [
        [a0, a1, a1, a2, a3, a3],
        [1n, 2n, 3n, 2n, 2n, 3n],
      ],
    });
    expect(balances).toEqual([100n, 4n, 18n, 5n, 1n, 2n]);
    for (const [address, interfaceId] of [
      [demo.contracts.nft, '0x80ac58cd'],
      [demo.contracts.multiToken, '0xd9b67a26'],
    ] as const) {
      const supported = await client.readContract({
        address,
        abi: demo.abis.nft,
        functionName: 'supportsInterface',
        args: [interfaceId],
      });
      expect(supported).toBe(true);
    }
  });

  it('mines the failing transactions as reverted, with decodable reasons', async () => {
    const { failed, failedCustom, failedPanic } = demo.transactions;
    for (const hash of [failed, failedCustom, failedPanic]) {
      expect((await client.getTransactionReceipt({ hash })).status).toBe('reverted');
    }
    const data = encodeFunctionData({ abi: demo.abis.reverter, functionName: 'fail' });
    await expect(client.call({ to: demo.contracts.reverter, data })).rejects.toThrow(/Reverter: always fails/);
  });

  it('produces a nested call log and an internal creation', async () => {
    const receipt = await client.getTransactionReceipt({ hash: demo.transactions.nestedPing });
    const [ping] = parseEventLogs({ abi: demo.abis.emitter, logs: receipt.logs, eventName: 'Ping' });
    expect(ping?.address.toLowerCase()).toBe(demo.contracts.emitter.toLowerCase());
    expect(ping?.args).toMatchObject({ from: demo.contracts.caller, n: 2n, note: 'nested hello' });
    expect(await client.getCode({ address: demo.contracts.child })).toMatch(/^0x[0-9a-f]{10,}$/);
    expect(await client.getBalance({ address: demo.contracts.child })).toBe(1_000n);
  });

  it('fills blocks with exactly txPerBlock transactions and restores automine', async () => {
    const before = await client.getBlockNumber();
    await fillBlocks(anvil, { blocks: 20, txPerBlock: 25 });
    expect(await client.getBlockNumber()).toBe(before + 20n);
    for (let n = before + 1n; n <= before + 20n; n++) {
      expect(await client.getBlockTransactionCount({ blockNumber: n })).toBe(25);
    }
    expect(await rpcCall(anvil.rpcUrl, 'anvil_getAutomine')).toBe(true);
  });

  it('fills blocks with ERC-20 transfers when given a token: every transaction emits its Transfer', async () => {
    const before = await client.getBlockNumber();
    // Block 0 of a fill is sent by dev accounts 0-4, which all hold the demo token.
    await fillBlocks(anvil, { blocks: 1, txPerBlock: 5, erc20: demo.contracts.token });
    const block = await client.getBlock({ blockNumber: before + 1n, includeTransactions: true });
    expect(block.transactions).toHaveLength(5);
    for (const tx of block.transactions) {
      const receipt = await client.getTransactionReceipt({ hash: tx.hash });
      expect(receipt.status).toBe('success');
      const transfers = parseEventLogs({ abi: erc20Abi, logs: receipt.logs, eventName: 'Transfer' });
      expect(transfers.map((t) => [t.address.toLowerCase(), t.args.from.toLowerCase(), t.args.value])).toEqual([[demo.contracts.token.toLowerCase(), tx.from.toLowerCase(), 1n]]);
    }
  });

  it('keeps ongoing demo activity going without errors until stopped', async () => {
    const errors: unknown[] = [];
    const start = await client.getBlockNumber();
    const activity = startDemoActivity(anvil, demo, { intervalMs: 20, onError: (error) => errors.push(error) });
    const busy = async () => (await client.getBlockNumber()) >= start + 30n || errors.length > 0;
    await waitFor(busy, '30 blocks of activity');
    await activity.stop();
    expect(errors).toEqual([]);
  });

  it('continues the same chain after a restart with statePath', async () => {
    // anvil answers a send before it mines it: the activity's last transaction may still be pending.
    await waitFor(async () => (await rpcCall<{ pending: string }>(anvil.rpcUrl, 'txpool_status')).pending === '0x0', 'an empty pool');
    const head = await client.getBlockNumber();
    const headHash = (await client.getBlock({ blockNumber: head })).hash;
    const oldPid = anvil.pid;
    await anvil.restart();
    expect(anvil.pid).not.toBe(oldPid);
    expect(isAlive(oldPid)).toBe(false);
    expect(await client.getBlockNumber()).toBe(head);
    expect((await client.getBlock({ blockNumber: head })).hash).toBe(headHash);
    const supply = await client.readContract({
      address: demo.contracts.token,
      abi: erc20Abi,
      functionName: 'totalSupply',
    });
    expect(supply).toBeGreaterThanOrEqual(parseEther('1000150')); // the activity may have minted more
  });

  it('refuses a port that is already taken, and reports anvil stderr when it cannot start', async () => {
    await expect(startAnvil({ port: anvil.port })).rejects.toThrow(/port \d+ is already in use/);
    const failure = startAnvil({ args: ['--no-such-flag'] });
    await expect(failure).rejects.toBeInstanceOf(AnvilStartError);
    await expect(failure).rejects.toThrow(/unexpected argument '--no-such-flag'/);
  });

  it('stops anvil: the process is gone and stop() is idempotent', async () => {
    const pid = anvil.pid;
    await anvil.stop();
    expect(isAlive(pid)).toBe(false);
    await anvil.stop();
  });
});

describe('devchain with interval mining', () => {
  it('deploys the demo and fills blocks, then restores the block time', async () => {
    const chain = await createTestChain({ blockTime: 1 });
    try {
      const demo = await deployDemo(chain);
      const status = await chain.publicClient.getTransactionReceipt({ hash: demo.transactions.failed });
      expect(status.status).toBe('reverted');
      const before = await chain.publicClient.getBlockNumber();
      await fillBlocks(chain, { blocks: 3, txPerBlock: 7 });
      const counts = await Promise.all(
        [1n, 2n, 3n].map((i) => chain.publicClient.getBlockTransactionCount({ blockNumber: before + i })),
      );
      expect(counts).toEqual([7, 7, 7]);
      expect(await rpcCall(chain.rpcUrl, 'anvil_getIntervalMining')).toBe(1);
      expect(await rpcCall(chain.rpcUrl, 'anvil_getAutomine')).toBe(false);
    } finally {
      await chain.close();
    }
  });
});

describe('createTestChain', () => {
  it('gives working clients and closes its node', async () => {
    const chain = await createTestChain();
    try {
      const [from, to] = chain.accounts;
      const hash = await chain.walletClient.sendTransaction({ to: to!.address, value: parseEther('1') });
      const receipt = await chain.publicClient.waitForTransactionReceipt({ hash });
      expect(receipt.status).toBe('success');
      expect(receipt.from).toBe(from!.address.toLowerCase());
      expect(chain.walletClients).toHaveLength(10);
    } finally {
      await chain.close();
    }
    expect(isAlive(chain.anvil.pid)).toBe(false);
  });
});

describe('process lifetime', () => {
  it('terminates anvil when the parent exits without calling stop()', async () => {
    const entry = fileURLToPath(new URL('./index.ts', import.meta.url));
    const script =
      `const { startAnvil } = await import(${JSON.stringify(entry)});` +
      'console.log((await startAnvil()).pid);';
    // The child exits on its own once its work is done: anvil must not keep it alive.
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--import', 'tsx', '--input-type=module', '--eval', script],
      { timeout: 60_000 },
    );
    const pid = Number(stdout.trim());
    expect(pid).toBeGreaterThan(0);
    await waitFor(() => !isAlive(pid), `orphaned anvil ${pid} to exit`);
  });
});
