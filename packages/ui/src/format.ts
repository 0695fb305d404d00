/** How the page writes the API's decimal strings for people. */

/**
 * `value` (an integer in base units, as a decimal string) in whole units of `decimals` places,
 * with thousands separators and at most `maxFraction` decimals (cut, not rounded; `…` says so).
 */
export function formatUnits(value: string, decimals: number, maxFraction = 6): string {
  const negative = value.startsWith('-');
  const digits = (negative ? value.slice(1) : value).padStart(decimals + 1, '0');
  const whole = digits.slice(0, digits.length - decimals);
  const fraction = digits.slice(digits.length - decimals).replace(/0+$/, '');
  const shown = fraction.slice(0, maxFraction);
  const cut = shown.length < fraction.length ? '…' : '';
  return `${negative ? '-' : ''}${groupThousands(whole)}${shown ? `.${shown}` : ''}${cut}`;
}

/** An amount of the native coin (Wei) in ETH. */
export function formatEth(wei: string, maxFraction = 6): string {
  return `${formatUnits(wei, 18, maxFraction)} ETH`;
}

/** A price per gas (Wei) in Gwei, to two decimals (a display figure: rounding is fine here). */
export function formatGwei(wei: string): string {
  return `${(Number(wei) / 1e9).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })} Gwei`;
}

/** A token amount: in whole tokens when its decimals are known, else as the raw integer. */
export function formatTokenAmount(value: string, decimals: string | null, symbol: string | null): string {
  const amount = decimals === null ? groupThousands(value) : formatUnits(value, Number(decimals));
  return symbol ? `${amount} ${symbol}` : amount;
}

/** A decimal integer with thousands separators. */
export function groupThousands(integer: string | number): string {
  return String(integer).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** A USD figure with two decimals (more for prices under a cent). */
export function formatUsd(value: string): string {
  const [whole = '0', fraction = ''] = value.split('.');
  const places = whole === '0' && /^0{2}/.test(fraction) ? 6 : 2;
  return `$${groupThousands(whole)}.${fraction.padEnd(places, '0').slice(0, places)}`;
}

/** A hash or address shortened for tables: `0x1234ab…cdef12`. */
export function shorten(hex: string, keep = 8): string {
  return hex.length <= 2 * keep + 3 ? hex : `${hex.slice(0, keep + 2)}…${hex.slice(-keep)}`;
}

/** How long ago a Unix time (seconds) was, from `now` (ms). */
export function age(timestamp: string, now: number): string {
  const seconds = Math.max(0, Math.floor(now / 1000) - Number(timestamp));
  if (seconds < 60) return `${seconds} s ago`;
  if (seconds < 3600) return `${Math.floor(seconds / 60)} min ago`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3600)} h ago`;
  return `${Math.floor(seconds / 86_400)} d ago`;
}

/** A Unix time (seconds) as a UTC date and time. */
export function formatTime(timestamp: string): string {
  return `${new Date(Number(timestamp) * 1000).toISOString().replace('T', ' ').slice(0, 19)} UTC`;
}

/** The fee a transaction paid: gas used × effective gas price, in Wei. */
export function feeOf(transaction: { gasUsed: string; gasPrice: string }): string {
  return (BigInt(transaction.gasUsed) * BigInt(transaction.gasPrice)).toString();
}
