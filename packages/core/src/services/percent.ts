/** Decimal places of a percentage. */
const PERCENT_DECIMALS = 6;

/** `part / whole` in percent as a decimal string, truncated to {@link PERCENT_DECIMALS} places, trailing zeros dropped. */
export function percentOf(part: bigint, whole: bigint): string {
  const scaled = (part * 100n * 10n ** BigInt(PERCENT_DECIMALS)) / whole;
  const negative = scaled < 0n;
  const digits = (negative ? -scaled : scaled).toString().padStart(PERCENT_DECIMALS + 1, '0');
  const integer = digits.slice(0, -PERCENT_DECIMALS);
  const fraction = digits.slice(-PERCENT_DECIMALS).replace(/0+$/, '');
  return `${negative ? '-' : ''}${integer}${fraction ? `.${fraction}` : ''}`;
}
