import { useEffect, useRef, useState } from 'preact/hooks';
import { sendFromWallet, waitUntilIndexed, type Outgoing, type WalletState } from '../wallet.js';
import { TransactionLink } from './links.js';
import { OutcomeBadge } from './tables.js';

/** Where a transaction sent from the wallet stands. */
export type Sending = { state: 'idle' } | { state: 'signing' } | { state: 'pending'; hash: string } | { state: 'mined'; hash: string; success: boolean } | { state: 'failed'; message: string };

/** Sends transactions from the wallet and follows the latest until it is mined and indexed. */
export function useSend(wallet: WalletState): { sending: Sending; send(tx: Outgoing): Promise<void> } {
  const [sending, setSending] = useState<Sending>({ state: 'idle' });
  const alive = useRef(true);
  useEffect(() => () => void (alive.current = false), []);
  return {
    sending,
    send: async (tx) => {
      setSending({ state: 'signing' });
      try {
        if (!wallet.provider || !wallet.account) throw new Error('Connect a wallet first');
        const hash = await sendFromWallet(wallet.provider, wallet.account, tx);
        setSending({ state: 'pending', hash });
        const success = await waitUntilIndexed(hash, () => !alive.current);
        if (alive.current) setSending({ state: 'mined', hash, success });
      } catch (error) {
        if (alive.current) setSending({ state: 'failed', message: error instanceof Error ? error.message : String(error) });
      }
    },
  };
}

/** What became of the transaction sent: asked of the wallet, waiting to be mined, or mined with a link to it. */
export function SendStatus({ sending }: { sending: Sending }) {
  switch (sending.state) {
    case 'idle':
      return null;
    case 'signing':
      return <p role="status">Confirm the transaction in your wallet…</p>;
    case 'pending':
      return (
        <p role="status">
          Sent <span class="mono">{sending.hash}</span>, waiting until it is mined…
        </p>
      );
    case 'mined':
      return (
        <p role="status" data-testid="mined">
          <OutcomeBadge success={sending.success} /> Mined: <TransactionLink hash={sending.hash} full />
        </p>
      );
    case 'failed':
      return (
        <p role="alert" class="error-text">
          {sending.message}
        </p>
      );
  }
}

/** The connected account, or a button asking the wallet for one (or word that there is no wallet). */
export function WalletBar({ wallet }: { wallet: WalletState }) {
  const [error, setError] = useState<string | null>(null);
  if (!wallet.provider) return <p class="muted">No wallet found: sending transactions needs an EIP-1193 wallet in this browser (window.ethereum).</p>;
  if (wallet.account) return <p>Connected as <span class="mono">{wallet.account}</span></p>;
  return (
    <p>
      <button type="button" onClick={() => wallet.connect().then(() => setError(null), (failure: Error) => setError(failure.message))}>
        Connect wallet
      </button>{' '}
      {error && <span role="alert" class="error-text">{error}</span>}
    </p>
  );
}
