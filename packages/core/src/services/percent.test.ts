import { describe, expect, it } from 'vitest';
import { percentOf } from './percent.js';

describe('percentOf', () => {
  it('writes a share of a whole as a decimal percent, truncated to six places without trailing zeros', () => {
    expect(percentOf(1n, 2n)).toBe('50');
    expect(percentOf(1n, 3n)).toBe('33.333333');
    expect(percentOf(2n, 3n)).toBe('66.666666');
    expect(percentOf(1n, 8n)).toBe('12.5');
    expect(percentOf(5n, 5n)).toBe('100');
    expect(percentOf(0n, 7n)).toBe('0');
  });

  it('stays exact for uint256 amounts and shows shares too small for six places as 0', () => {
    const supply = 2n ** 256n - 1n;
    expect(percentOf(supply / 4n, supply)).toBe('24.999999');
    expect(percentOf(1n, supply)).toBe('0');
    expect(percentOf(10n ** 12n, 10n ** 20n)).toBe('0.000001');
  });

  it('keeps what a broken token reports: over 100 and negative', () => {
    expect(percentOf(3n, 2n)).toBe('150');
    expect(percentOf(-1n, 4n)).toBe('-25');
  });
});
