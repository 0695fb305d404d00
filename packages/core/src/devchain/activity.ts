import { encodeFunctionData, parseEther, type Abi, type Address, type LocalAccount } from 'viem';
import { DEV_ACCOUNT_COUNT, devAccount } from './accounts.js';
import type { DemoDeployment } from './demo.js';
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
  /** Stops scheduling rounds and resolves once the round in flight has finished sending. */
  stop(): Promise<void>;
}

const CALL_GAS = 300_000n;
const TOKEN_AMOUNT = parseEther('1');

/**
 * Keeps the demo chain busy: every `intervalMs` it sends a round of transactions — an ERC-20
 * transfer between rotating dev accounts (minting to the sender when it runs dry), a native ETH
 * transfer, and depending on the round an NFT mint or transfer, an ERC-1155 transfer, an
 * `EventEmitter` ping (direct or through `Caller`) and, every tenth round, a reverting `Reverter`
 * call mined with explicit gas. Errors never escape; they go to `onError`.
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

  const tick = (): void => {
    inFlight = (async () => {
      sender ??= await TxSender.connect(chain.rpcUrl);
      await runRound(sender, deployment, round++);
    })()
      .catch((error: unknown) => {
        sender = undefined; // reconnect next round, in case the node restarted
        onError(error);
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
      await inFlight;
    },
  };
}

async function runRound(sender: TxSender, deployment: DemoDeployment, round: number): Promise<void> {
  const { contracts, abis } = deployment;
  // Other code may send from the same dev accounts between rounds: start from the node's view.
  sender.refresh();
  const owner = devAccount(0);
  const pick = (offset: number): LocalAccount => devAccount((round + offset) % DEV_ACCOUNT_COUNT);
  const read = <T>(address: Address, abi: Abi, functionName: string, args: readonly unknown[] = []) =>
    sender.client.readContract({ address, abi, functionName, args }) as Promise<T>;
  const call = (from: LocalAccount, to: Address, abi: Abi, fn: string, args: readonly unknown[] = []) => {
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
  } else if (round % 3 === 1) {
    const supply = await read<bigint>(contracts.nft, abis.nft, 'totalSupply');
    const tokenId = 1n + (BigInt(round) % supply);
    const holder = await read<Address>(contracts.nft, abis.nft, 'ownerOf', [tokenId]);
    const holderAccount = devAccountByAddress(holder);
    // Tokens someone moved outside the dev accounts cannot be signed for; skip them.
    if (holderAccount) {
      await call(holderAccount, contracts.nft, abis.nft, 'transferFrom', [holder, pick(5).address, tokenId]);
    }
  }

  if (round % 4 === 2) {
    const stock = await read<bigint>(contracts.multiToken, abis.multiToken, 'balanceOf', [owner.address, 1n]);
    if (stock === 0n) {
      await call(owner, contracts.multiToken, abis.multiToken, 'mint', [owner.address, 1n, 100n, '0x']);
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
}

function devAccountByAddress(address: Address): LocalAccount | undefined {
  for (let index = 0; index < DEV_ACCOUNT_COUNT; index++) {
    const account = devAccount(index);
    if (account.address.toLowerCase() === address.toLowerCase()) return account;
  }
  return undefined;
}
