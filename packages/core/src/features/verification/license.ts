/**
 * Etherscan's `licenseType` codes and the SPDX identifiers they stand for (1, "No License", is
 * none at all).
 */
export const ETHERSCAN_LICENSES: Readonly<Record<number, string | null>> = {
  1: null,
  2: 'Unlicense',
  3: 'MIT',
  4: 'GPL-2.0',
  5: 'GPL-3.0',
  6: 'LGPL-2.1',
  7: 'LGPL-3.0',
  8: 'BSD-2-Clause',
  9: 'BSD-3-Clause',
  10: 'MPL-2.0',
  11: 'OSL-3.0',
  12: 'Apache-2.0',
  13: 'AGPL-3.0',
  14: 'BUSL-1.1',
};

/** `// SPDX-License-Identifier: MIT`, and expressions such as `MIT OR Apache-2.0`. */
const SPDX_LINE = /SPDX-License-Identifier:[ \t]*([A-Za-z0-9.+-]+(?:[ \t]+(?:OR|AND|WITH)[ \t]+[A-Za-z0-9.+-]+)*)/;

/**
 * The license of a verified contract: the SPDX identifier its defining file declares, as solc
 * reads it; else the submitted `licenseType` (an Etherscan code or an SPDX identifier); else `null`.
 */
export function licenseOf(source: string, licenseType?: number | string): string | null {
  const declared = SPDX_LINE.exec(source)?.[1];
  if (declared) return declared;
  if (typeof licenseType === 'number') return ETHERSCAN_LICENSES[licenseType] ?? null;
  return licenseType ?? null;
}
