import { useEffect, useState } from 'preact/hooks';
import { ApiError, v1 } from './api.js';
import { rpc } from './rpc.js';

/** A wallet as EIP-1193 has it (`window.ethereum`): requests, and events where it offers them. */
export interface Eip1193Provider {
  request(args: { method: string; params?: unknown[] }): Promise<unknown>;
  on?(event: 'accountsChanged', listener: (accounts: string[]) => void): void;
  removeListener?(event: 'accountsChanged', listener: (accounts: string[]) => void): void;
}

/** The browser's injected wallet, `null` without one. */
export function injectedWallet(): Eip1193Provider | null {
  return (window as { ethereum?: Eip1193Provider }).ethereum ?? null;
}

/** The wallet's account the page sends from, and a way to ask for it. */
export interface WalletState {
  provider: Eip1193Provider | null;
  account: string | null;
  connect(): Promise<void>;
}

/** Follows the injected wallet's first account: one it already shares, or the one it gives on {@link WalletState.connect}. */
export function useWallet(): WalletState {
  const provider = injectedWallet();
  const [account, setAccount] = useState<string | null>(null);
  useEffect(() => {
    if (!provider) return;
    const follow = (accounts: string[]) => setAccount(accounts[0]?.toLowerCase() ?? null);
    provider.request({ method: 'eth_accounts' }).then((accounts) => follow(accounts as string[]), () => undefined);
    provider.on?.('accountsChanged', follow);
    return () => provider.removeListener?.('accountsChanged', follow);
  }, [provider]);
  return {
    provider,
    account,
    connect: async () => {
      if (!provider) throw new Error('No wallet found: install an EIP-1193 wallet (such as a browser extension) to send transactions');
      const accounts = (await provider.request({ method: 'eth_requestAccounts' })) as string[];
      setAccount(accounts[0]?.toLowerCase() ?? null);
    },
  };
}

/** A transaction to send from the wallet. */
export interface Outgoing {
  to: string;
  data: string;
  /** Wei, `0n` when none. */
  value: bigint;
}

/**
 * Sends `tx` from `account` through the wallet, once its chain is this explorer's; resolves with
 * the hash the wallet gives.
 */
export async function sendFromWallet(provider: Eip1193Provider, account: string, tx: Outgoing): Promise<string> {
  const [ours, theirs] = await Promise.all([rpc<string>('eth_chainId', []), provider.request({ method: 'eth_chainId' }) as Promise<string>]);
  if (BigInt(ours) !== BigInt(theirs)) throw new Error(`Your wallet is on chain ${BigInt(theirs)}; switch it to this explorer's chain ${BigInt(ours)}`);
  const params: Record<string, string> = { from: account, to: tx.to, data: tx.data };
  if (tx.value > 0n) params['value'] = `0x${tx.value.toString(16)}`;
  return (await provider.request({ method: 'eth_sendTransaction', params: [params] })) as string;
}

/** How often a sent transaction is looked for: the chain's blocks, then the explorer's index. */
const POLL_MS = 1000;

/**
 * Waits until `hash` is mined (its receipt, through the explorer's JSON-RPC) and indexed (its
 * transaction page has it); resolves with whether it succeeded. `cancelled` stops the wait.
 */
export async function waitUntilIndexed(hash: string, cancelled: () => boolean): Promise<boolean> {
  let receipt: { status: string } | null = null;
  while (!cancelled()) {
    receipt ??= await rpc<{ status: string } | null>('eth_getTransactionReceipt', [hash]);
    if (receipt && (await indexed(hash))) return receipt.status === '0x1';
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  return false;
}

async function indexed(hash: string): Promise<boolean> {
  try {
    await v1(`transaction/${hash}`);
    return true;
  } catch (error) {
    if (error instanceof ApiError && error.notFound) return false;
    throw error;
  }
}
