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
  http,
  parseAbi,
  parseEther,
  parseEventLogs,
  zeroAddress,
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

/** Uniswap V2's events, as an indexer of real Uniswap V2 pools decodes them. */
const uniswapV2Events = parseAbi([
  'event PairCreated(address indexed token0, address indexed token1, address pair, uint256)',
  'event Sync(uint112 reserve0, uint112 reserve1)',
  'event Swap(address indexed sender, uint256 amount0In, uint256 amount1In, uint256 amount0Out, uint256 amount1Out, address indexed to)',
  'event Mint(address indexed sender, uint256 amount0, uint256 amount1)',
]);

/** ERC-721 `Transfer` and ERC-1155 `TransferSingle`: a burn sends to the zero address. */
const nftAndMultiTransfers = parseAbi([
  'event Transfer(address indexed from, address indexed to, uint256 indexed tokenId)',
  'event TransferSingle(address indexed operator, address indexed from, address indexed to, uint256 id, uint256 value)',
]);

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
  /** The DEMO the scripted swap bought with 1 000 DUSD (Uniswap V2's getAmountOut, 0.3% fee). */
  let swapOutput: bigint;

  /** The pair's tokens in its order: by address, as Uniswap V2 sorts them. */
  const sortedTokens = (): [Address, Address] => {
    const { token, quoteToken } = demo.contracts;
    return BigInt(token) < BigInt(quoteToken) ? [token, quoteToken] : [quoteToken, token];
  };
  /** Event arguments `<prefix>0<suffix>` / `<prefix>1<suffix>` for a DEMO and a DUSD amount. */
  const byToken = (demoAmount: bigint, dusdAmount: bigint, prefix: string, suffix = '') => {
    const [token0] = sortedTokens();
    const [amount0, amount1] = token0 === demo.contracts.token ? [demoAmount, dusdAmount] : [dusdAmount, demoAmount];
    return { [`${prefix}0${suffix}`]: amount0, [`${prefix}1${suffix}`]: amount1 };
  };

  beforeAll(async () => {
    stateDir = mkdtempSync(join(tmpdir(), 'chainlens-devchain-'));
    anvil = await startAnvil({ statePath: join(stateDir, 'state.json') });
    demo = await deployDemo(anvil);
    const amountInWithFee = parseEther('1000') * 997n;
    swapOutput = (amountInWithFee * parseEther('100000')) / (parseEther('250000') * 1000n + amountInWithFee);
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
    const names = [
      'DemoToken',
      'DemoNFT',
      'DemoMultiToken',
      'EventEmitter',
      'Reverter',
      'Caller',
      'Child',
      'DemoFactory',
      'DemoPair',
    ];
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
    // Account 0 put 100 000 DEMO into the pool and bought some back with its swap.
    const expected = ['898450', '990', '450', '250', '10'].map((amount) => parseEther(amount));
    expected[0]! += swapOutput;
    expect(balances).toEqual(expected);
    expect(await client.readContract({ ...token, functionName: 'totalSupply' })).toBe(parseEther('1000150'));
    expect(await client.readContract({ ...token, functionName: 'decimals' })).toBe(18);
  });

  it('deploys the quote token DUSD and leaves the scripted DUSD balances', async () => {
    const quote = { address: demo.contracts.quoteToken, abi: erc20Abi } as const;
    expect(await client.readContract({ ...quote, functionName: 'name' })).toBe('Demo Dollar');
    expect(await client.readContract({ ...quote, functionName: 'symbol' })).toBe('DUSD');
    expect(await client.readContract({ ...quote, functionName: 'decimals' })).toBe(18);
    const [a0] = demo.accounts as [Address];
    expect(await client.readContract({ ...quote, functionName: 'balanceOf', args: [a0] })).toBe(parseEther('749000'));
    const inPair = await client.readContract({ ...quote, functionName: 'balanceOf', args: [demo.contracts.dexPair] });
    expect(inPair).toBe(parseEther('251000'));
  });

  it('creates the DEMO/DUSD pair through the factory, tokens sorted by address', async () => {
    const receipt = await client.getTransactionReceipt({ hash: demo.transactions.pairCreated });
    expect(receipt.status).toBe('success');
    expect(demo.transactions.deployments.dexPair).toBe(demo.transactions.pairCreated);
    const events = parseEventLogs({ abi: uniswapV2Events, logs: receipt.logs, eventName: 'PairCreated' });
    expect(events).toHaveLength(1);
    const [token0, token1] = sortedTokens();
    expect(events[0]!.address.toLowerCase()).toBe(demo.contracts.dexFactory.toLowerCase());
    // viem gives an unnamed parameter's event as an array.
    expect(events[0]!.args).toEqual([token0, token1, demo.contracts.dexPair, 1n]);
    const pair = { address: demo.contracts.dexPair, abi: demo.abis.dexPair } as const;
    expect(await client.readContract({ ...pair, functionName: 'token0' })).toBe(token0);
    expect(await client.readContract({ ...pair, functionName: 'token1' })).toBe(token1);
    expect(await client.readContract({ ...pair, functionName: 'factory' })).toBe(demo.contracts.dexFactory);
    const factory = { address: demo.contracts.dexFactory, abi: demo.abis.dexFactory } as const;
    expect(await client.readContract({ ...factory, functionName: 'getPair', args: [token1, token0] })).toBe(
      demo.contracts.dexPair,
    );
  });

  it('adds the liquidity with Sync, then Mint, and leaves reserves of liquidity plus the swap', async () => {
    const [a0] = demo.accounts as [Address];
    const mint = await client.getTransactionReceipt({ hash: demo.transactions.addLiquidity });
    const events = parseEventLogs({ abi: uniswapV2Events, logs: mint.logs });
    expect(events.map((e) => [e.address.toLowerCase(), e.eventName])).toEqual([
      [demo.contracts.dexPair.toLowerCase(), 'Sync'],
      [demo.contracts.dexPair.toLowerCase(), 'Mint'],
    ]);
    expect(events[0]!.args).toEqual(byToken(parseEther('100000'), parseEther('250000'), 'reserve'));
    expect(events[1]!.args).toEqual({
      sender: a0,
      ...byToken(parseEther('100000'), parseEther('250000'), 'amount'),
    });

    const [reserve0, reserve1, timestamp] = (await client.readContract({
      address: demo.contracts.dexPair,
      abi: demo.abis.dexPair,
      functionName: 'getReserves',
    })) as [bigint, bigint, number];
    expect({ reserve0, reserve1 }).toEqual(byToken(parseEther('100000') - swapOutput, parseEther('251000'), 'reserve'));
    const swapBlock = (await client.getTransactionReceipt({ hash: demo.transactions.swap })).blockNumber;
    expect(BigInt(timestamp)).toBe((await client.getBlock({ blockNumber: swapBlock })).timestamp);
  });

  it('swaps 1 000 DUSD for DEMO at the getAmountOut price, with Sync, then Swap', async () => {
    const [a0] = demo.accounts as [Address];
    // 1 000 DUSD in at 0.3% fee against 250 000 DUSD / 100 000 DEMO: about 397.2 DEMO out.
    expect(swapOutput).toBe(397_215_902_978_920_066_773n);
    const receipt = await client.getTransactionReceipt({ hash: demo.transactions.swap });
    expect(receipt.status).toBe('success');
    const events = parseEventLogs({ abi: uniswapV2Events, logs: receipt.logs });
    expect(events.map((e) => [e.address.toLowerCase(), e.eventName])).toEqual([
      [demo.contracts.dexPair.toLowerCase(), 'Sync'],
      [demo.contracts.dexPair.toLowerCase(), 'Swap'],
    ]);
    expect(events[0]!.args).toEqual(byToken(parseEther('100000') - swapOutput, parseEther('251000'), 'reserve'));
    expect(events[1]!.args).toEqual({
      sender: a0,
      to: a0,
      ...byToken(0n, parseEther('1000'), 'amount', 'In'),
      ...byToken(swapOutput, 0n, 'amount', 'Out'),
    });
    // The DEMO paid out is the token's Transfer from the pair to account 0 in the same transaction.
    const transfers = parseEventLogs({ abi: erc20Abi, logs: receipt.logs, eventName: 'Transfer' });
    expect(transfers.map((t) => [t.address.toLowerCase(), t.args.from, t.args.to, t.args.value])).toEqual([
      [demo.contracts.token.toLowerCase(), demo.contracts.dexPair, a0, swapOutput],
    ]);
  });

  it('leaves the scripted NFT owners and ERC-1155 balances, burns taken off', async () => {
    const [a0, a1, a2, a3] = demo.accounts as [Address, Address, Address, Address];
    const nft = { address: demo.contracts.nft, abi: demo.abis.nft } as const;
    const owners = await Promise.all(
      [1n, 2n, 3n].map((tokenId) => client.readContract({ ...nft, functionName: 'ownerOf', args: [tokenId] })),
    );
    expect(owners).toEqual([a0, a3, a2]);
    await expect(client.readContract({ ...nft, functionName: 'ownerOf', args: [4n] })).rejects.toThrow(/nonexistent token/);
    expect(await client.readContract({ ...nft, functionName: 'balanceOf', args: [a1] })).toBe(0n);
    expect([await client.readContract({ ...nft, functionName: 'totalSupply' }), await client.readContract({ ...nft, functionName: 'minted' })]).toEqual([3n, 4n]);
    const balances = await client.readContract({
      address: demo.contracts.multiToken,
      abi: demo.abis.multiToken,
      functionName: 'balanceOfBatch',
      args: [
        [a0, a1, a1, a2, a3, a3],
        [1n, 2n, 3n, 2n, 2n, 3n],
      ],
    });
    expect(balances).toEqual([90n, 3n, 15n, 5n, 1n, 2n]);
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

  it('trades on the DEX pair in both directions during demo activity', async () => {
    const errors: unknown[] = [];
    const start = await client.getBlockNumber();
    const pair = { address: demo.contracts.dexPair, abi: demo.abis.dexPair } as const;
    const reservesBefore = await client.readContract({ ...pair, functionName: 'getReserves' });
    const activity = startDemoActivity(anvil, demo, { intervalMs: 20, onError: (error) => errors.push(error) });
    // Swaps paying token0 in and swaps paying token1 in: the price went both ways.
    const bothWays = async () => {
      if (errors.length > 0) return true;
      if ((await client.getBlockNumber()) <= start) return false; // getLogs refuses a range past the head
      const logs = await client.getLogs({ address: pair.address, fromBlock: start + 1n });
      const swaps = parseEventLogs({ abi: uniswapV2Events, logs, eventName: 'Swap' });
      return new Set(swaps.map((swap) => swap.args.amount0In > 0n)).size === 2;
    };
    try {
      await waitFor(bothWays, 'swaps in both directions');
    } finally {
      await activity.stop();
    }
    expect(errors).toEqual([]);
    expect(await client.readContract({ ...pair, functionName: 'getReserves' })).not.toEqual(reservesBefore);
  });

  it('burns NFTs and ERC-1155 tokens during demo activity', async () => {
    const errors: unknown[] = [];
    const start = await client.getBlockNumber();
    const activity = startDemoActivity(anvil, demo, { intervalMs: 20, onError: (error) => errors.push(error) });
    const burnedBoth = async () => {
      if (errors.length > 0) return true;
      if ((await client.getBlockNumber()) <= start) return false; // getLogs refuses a range past the head
      const logs = await client.getLogs({ address: [demo.contracts.nft, demo.contracts.multiToken], fromBlock: start + 1n });
      const burns = parseEventLogs({ abi: nftAndMultiTransfers, logs }).filter((event) => event.args.to === zeroAddress);
      return new Set(burns.map((event) => event.eventName)).size === 2;
    };
    try {
      await waitFor(burnedBoth, 'an ERC-721 and an ERC-1155 burn');
    } finally {
      await activity.stop();
    }
    expect(errors).toEqual([]);
  });

  // Without the abort, stop() waited for viem's 3-minute receipt timeout, past this test's limit.
  it("stop() ends a round's wait for a swap the node never mines, and reports no error", { timeout: 30_000 }, async () => {
    const errors: unknown[] = [];
    await client.request({ method: 'evm_setAutomine' as never, params: [false] as never });
    const activity = startDemoActivity(anvil, demo, { intervalMs: 20, onError: (error) => errors.push(error) });
    try {
      const swapPending = async () => {
        const pool = await client.request({ method: 'txpool_content' as never }) as { pending: Record<string, Record<string, { to: Address | null }>> };
        const pending = Object.values(pool.pending).flatMap((byNonce) => Object.values(byNonce));
        return pending.some((tx) => tx.to?.toLowerCase() === demo.contracts.dexPair.toLowerCase());
      };
      await waitFor(swapPending, 'a swap waiting in the pool');
      await activity.stop();
    } finally {
      await client.request({ method: 'evm_setAutomine' as never, params: [true] as never });
      await client.request({ method: 'evm_mine' as never });
    }
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
