import { shorten } from '../format.js';
import { href } from '../router.js';

/**
 * A link to an address's page (the zero-length `''` of a creation's `to` is no address). An
 * address with a public label shows the label, with the address in its title and accessible name,
 * and written out beside it when `full`.
 */
export function AddressLink({ address, label = null, full = false }: { address: string | null; label?: string | null; full?: boolean }) {
  if (!address) return <span class="muted">—</span>;
  if (label) {
    return (
      <a href={href.address(address)} title={address} aria-label={`${label} (${address})`}>
        <span class="address-label">{label}</span>
        {full && <span class="mono"> {address}</span>}
      </a>
    );
  }
  return (
    <a class="mono" href={href.address(address)} title={address}>
      {full ? address : shorten(address, 6)}
    </a>
  );
}

export function TransactionLink({ hash, full = false }: { hash: string; full?: boolean }) {
  return (
    <a class="mono" href={href.transaction(hash)} title={hash}>
      {full ? hash : shorten(hash, 6)}
    </a>
  );
}

export function BlockLink({ number }: { number: string | number }) {
  return <a href={href.block(number)}>{number}</a>;
}

export function TokenLink({ address, label }: { address: string; label: string | null }) {
  return (
    <a href={href.token(address)} title={address}>
      {label ?? shorten(address)}
    </a>
  );
}
