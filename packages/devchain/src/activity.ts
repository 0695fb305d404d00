import { encodeFunctionData, parseEther, type Abi, type Address, type Hash, type LocalAccount } from 'viem';
import { DEV_ACCOUNT_COUNT, devAccount } from './accounts.js';
import { DEMO_POOL_LIQUIDITY, getAmountOut, type DemoDeployment } from './demo.js';
import { TxSender } from './tx-sender.js';

/** Options of {@link startDemoActivity}. */
export interface DemoActivityOptions {
  /** Pause between rounds in ms; match anvil's block time for about one round per block. Default 1000. */
  intervalMs?: number;
  /** Receives every error of a round (the round is skipped, activity continues). Default: ignored. */
  onError?: (error: unknown) => void;
}

/** Handle of a running {@link startDemoActivity}. */
export interface DemoActivity {
  /** Stops scheduling rounds, ends the round in flight's wait for a receipt, and resolves once that round has stopped sending. */
  stop(): Promise<void>;
}

const CALL_GAS = 300_000n;
const TOKEN_AMOUNT = parseEther('1');

/** Reads a contract at the latest block. */
type Read = <T>(address: Address, abi: Abi, functionName: string, args?: readonly unknown[]) => Promise<T>;
/** Sends a contract call with {@link CALL_GAS}; resolves with the hash once the node accepted it. */
type Call = (from: LocalAccount, to: Address, abi: Abi, fn: string, args?: readonly unknown[]) => Promise<Hash>;

/**
 * Keeps the demo chain busy: every `intervalMs` it sends a round of transactions — an ERC-20
 * transfer between rotating dev accounts (minting to the sender when it runs dry), a native ETH
 * transfer, and depending on the round an NFT mint, transfer or burn, an ERC-1155 transfer or
 * burn, an `EventEmitter` ping (direct or through `Caller`), every tenth round a reverting `Reverter`
 * call mined with explicit gas, and every third round a swap of a few hundred tokens on the
 * DEMO/DUSD pair in a random direction (biased back towards the opening price, so the price moves
 * up and down without draining the pool), whose round waits for it to be mined. Errors never
 * escape; they go to `onError`.
 */
export function startDemoActivity(
  chain: { rpcUrl: string },
  deployment: DemoDeployment,
  options: DemoActivityOptions = {},
): DemoActivity {
  const intervalMs = options.intervalMs ?? 1_000;
  const onError = options.onError ?? (() => {});
  let sender: TxSender | undefined;
  let round = 0;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let inFlight: Promise<void> = Promise.resolve();
  // Ends a round's wait for its swap's receipt on stop: a transaction the node never mines would
  // hold `stop()` for viem's 3-minute receipt timeout, past any test's teardown limit.
  const stopping = new AbortController();

  const tick = (): void => {
    inFlight = (async () => {
      sender ??= await TxSender.connect(chain.rpcUrl);
      await runRound(sender, deployment, round++, stopping.signal);
    })()
      .catch((error: unknown) => {
        sender = undefined; // reconnect next round, in case the node restarted
        if (!stopped) onError(error);
      })
      .finally(() => {
        if (stopped) return;
        timer = setTimeout(tick, intervalMs);
        timer.unref(); // background helper: never the reason the process stays alive
      });
  };
  tick();

  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      stopping.abort();
      await inFlight;
    },
  };
}

async function runRound(sender: TxSender, deployment: DemoDeployment, round: number, signal: AbortSignal): Promise<void> {
  const { contracts, abis } = deployment;
  // Other code may send from the same dev accounts between rounds: start from the node's view.
  sender.refresh();
  const owner = devAccount(0);
  const pick = (offset: number): LocalAccount => devAccount((round + offset) % DEV_ACCOUNT_COUNT);
  const read: Read = <T>(address: Address, abi: Abi, functionName: string, args: readonly unknown[] = []) =>
    sender.client.readContract({ address, abi, functionName, args }) as Promise<T>;
  const call: Call = (from, to, abi, fn, args = []) => {
    const data = encodeFunctionData({ abi, functionName: fn, args });
    return sender.send(from, { to, data, gas: CALL_GAS });
  };

  const payer = pick(0);
  if ((await read<bigint>(contracts.token, abis.token, 'balanceOf', [payer.address])) < TOKEN_AMOUNT) {
    await call(owner, contracts.token, abis.token, 'mint', [payer.address, 1_000n * TOKEN_AMOUNT]);
  } else {
    await call(payer, contracts.token, abis.token, 'transfer', [pick(1).address, TOKEN_AMOUNT]);
  }
  await sender.send(pick(2), { to: pick(3).address, value: parseEther('0.01'), gas: 21_000n });

  if (round % 3 === 0) {
    await call(owner, contracts.nft, abis.nft, 'mint', [pick(4).address]);
  } else if (round % 3 === 1 || round % 12 === 8) {
    // An NFT moves in one round of three and is burned in one of twelve.
    const burn = round % 3 === 2;
    const minted = await read<bigint>(contracts.nft, abis.nft, 'minted');
    const tokenId = 1n + (BigInt(round) % minted);
    // A burned token has no owner (ownerOf reverts), and tokens someone moved outside the dev
    // accounts cannot be signed for: both are skipped.
    const holder = await read<Address>(contracts.nft, abis.nft, 'ownerOf', [tokenId]).catch(() => null);
    const holderAccount = holder === null ? undefined : devAccountByAddress(holder);
    if (holder && holderAccount) {
      if (burn) await call(holderAccount, contracts.nft, abis.nft, 'burn', [tokenId]);
      else await call(holderAccount, contracts.nft, abis.nft, 'transferFrom', [holder, pick(5).address, tokenId]);
    }
  }

  if (round % 4 === 2) {
    const stock = await read<bigint>(contracts.multiToken, abis.multiToken, 'balanceOf', [owner.address, 1n]);
    if (stock === 0n) {
      await call(owner, contracts.multiToken, abis.multiToken, 'mint', [owner.address, 1n, 100n, '0x']);
    } else if (round % 8 === 6) {
      await call(owner, contracts.multiToken, abis.multiToken, 'burn', [owner.address, 1n, 1n]);
    } else {
      const args = [owner.address, pick(6).address, 1n, 1n, '0x'];
      await call(owner, contracts.multiToken, abis.multiToken, 'safeTransferFrom', args);
    }
  }

  if (round % 6 === 5) {
    const note = `nested round ${round}`;
    await call(pick(7), contracts.caller, abis.caller, 'callPing', [contracts.emitter, note]);
  } else if (round % 2 === 1) {
    await call(pick(7), contracts.emitter, abis.emitter, 'ping', [`round ${round}`]);
  }

  if (round % 10 === 9) {
    const failure = ['fail', 'failCustom', 'panic'][Math.floor(round / 10) % 3] as string;
    await call(pick(8), contracts.reverter, abis.reverter, failure);
  }

  if (round % 3 === 1) await tradeOnPair(sender, deployment, pick(9), read, call, signal);
}

/**
 * One swap on the DEMO/DUSD pair by `trader`, Uniswap V2 style: the input is sent to the pair,
 * then `swap` asks for what `getAmountOut` gives. The input is 0.1–0.5% of its reserve (a few
 * hundred tokens), so a swap can never drain the pool. The direction is random, biased back
 * towards the opening price so the price wanders up and down within about ±25% of it. The owner
 * mints the trader what it lacks first. Waits for the swap, so the next one reads fresh reserves.
 */
async function tradeOnPair(
  sender: TxSender,
  deployment: DemoDeployment,
  trader: LocalAccount,
  read: Read,
  call: Call,
  signal: AbortSignal,
): Promise<void> {
  const { contracts, abis } = deployment;
  const [reserve0, reserve1] = await read<[bigint, bigint, number]>(contracts.dexPair, abis.dexPair, 'getReserves');
  const demoIsToken0 = BigInt(contracts.token) < BigInt(contracts.quoteToken);
  const [reserveDemo, reserveQuote] = demoIsToken0 ? [reserve0, reserve1] : [reserve1, reserve0];
  const opening = DEMO_POOL_LIQUIDITY;
  // DEMO's price relative to the opening one, minus 1: 0.1 means 10% dearer.
  const drift = Number(reserveQuote * opening.token) / Number(reserveDemo * opening.quoteToken) - 1;
  const buyDemo = Math.random() < 0.5 - 2 * drift;
  const [tokenIn, reserveIn, reserveOut] = buyDemo
    ? [contracts.quoteToken, reserveQuote, reserveDemo]
    : [contracts.token, reserveDemo, reserveQuote];
  const amountIn = (reserveIn * BigInt(10 + Math.floor(Math.random() * 41))) / 10_000n;
  const amountOut = getAmountOut(amountIn, reserveIn, reserveOut);

  const balance = await read<bigint>(tokenIn, abis.token, 'balanceOf', [trader.address]);
  // Twice the input: leaves room for the trader's other transfers still pending.
  if (balance < 2n * amountIn) {
    // A tenth of the reserve lasts the trader ten swaps or more.
    const funding = await call(devAccount(0), tokenIn, abis.token, 'mint', [trader.address, reserveIn / 10n]);
    await sender.waitForReceipts([funding], signal);
  }
  await call(trader, tokenIn, abis.token, 'transfer', [contracts.dexPair, amountIn]);
  const outs = buyDemo === demoIsToken0 ? [amountOut, 0n] : [0n, amountOut];
  const swap = await call(trader, contracts.dexPair, abis.dexPair, 'swap', [...outs, trader.address]);
  const [receipt] = await sender.waitForReceipts([swap], signal);
  if (receipt?.status !== 'success') throw new Error(`demo swap ${swap} reverted`);
}

function devAccountByAddress(address: Address): LocalAccount | undefined {
  for (let index = 0; index < DEV_ACCOUNT_COUNT; index++) {
    const account = devAccount(index);
    if (account.address.toLowerCase() === address.toLowerCase()) return account;
  }
  return undefined;
}
