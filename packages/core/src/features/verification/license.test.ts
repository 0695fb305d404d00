import { describe, expect, it } from 'vitest';
import { licenseOf } from './license.js';

describe('licenseOf', () => {
  it('reads the SPDX identifier or expression the file declares, before any submitted license', () => {
    expect(licenseOf('// SPDX-License-Identifier: MIT\npragma solidity ^0.8.0;', 5)).toBe('MIT');
    expect(licenseOf('/* SPDX-License-Identifier: MIT OR Apache-2.0 */', undefined)).toBe('MIT OR Apache-2.0');
  });

  it('falls back to the submitted Etherscan license code or SPDX identifier, else none', () => {
    expect(licenseOf('contract A {}', 3)).toBe('MIT');
    expect(licenseOf('contract A {}', 1)).toBeNull();
    expect(licenseOf('contract A {}', 'BUSL-1.1')).toBe('BUSL-1.1');
    expect(licenseOf('contract A {}', undefined)).toBeNull();
  });
});
