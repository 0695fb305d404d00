import type { Explorer } from '@chainlens/core';
import { DEMO_SOURCES } from '@chainlens/devchain';
import type { Page } from 'playwright-core';

/** Verifies the demo's event emitter at `address` for real (solc, bytecode match), for its contract tabs. */
export async function verifyEmitter(explorer: Explorer, address: string): Promise<void> {
  await explorer.services.verification.verify({
    address,
    sourceCode: DEMO_SOURCES['EventEmitter.sol']!,
    contractName: 'EventEmitter',
    compilerVersion: '0.8.37',
    optimizationUsed: true,
    runs: 200,
    evmVersion: 'cancun',
  });
}

/** The rows of the table its caption names, each as its cells' text. */
export async function rowsOf(page: Page, caption: string): Promise<string[][]> {
  const table = page.locator('table', { has: page.locator('caption', { hasText: caption }) });
  await table.waitFor();
  return Promise.all((await table.locator('tbody tr').all()).map((row) => row.locator('td').allInnerTexts()));
}
