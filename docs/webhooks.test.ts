import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { webhookSignature } from '@chainlens/core';

const DOCS = dirname(fileURLToPath(import.meta.url));

/** The verification snippet of webhooks.md, as a module of its own. */
async function snippet(): Promise<{ verify: (secret: string, headers: Record<string, string>, rawBody: string) => boolean }> {
  const [, source] = /^```js verify\n([\s\S]*?)^```$/m.exec(readFileSync(join(DOCS, 'webhooks.md'), 'utf8'))!;
  expect(source!.trim().split('\n').length).toBeLessThanOrEqual(11);
  const dir = join(DOCS, '.cache', 'webhooks');
  mkdirSync(dir, { recursive: true });
  const file = join(dir, 'verify.mjs');
  writeFileSync(file, source!);
  return import(`${pathToFileURL(file).href}?${Date.now()}`);
}

describe('the verification snippet of webhooks.md', () => {
  it('accepts what ChainLens signs (either signature during a rotation) and refuses tampering and stale timestamps', async () => {
    const { verify } = await snippet();
    const body = JSON.stringify({ id: 'd1', webhookId: 'w1', event: 'block', createdAt: new Date().toISOString(), data: { blockNumber: '1' } });
    const now = Math.floor(Date.now() / 1000);
    const headers = (secrets: string[], at = now) => ({
      'chainlens-timestamp': String(at),
      'chainlens-signature': secrets.map((secret) => `v1=${webhookSignature(secret, at, body)}`).join(' '),
    });
    expect(verify('whsec_new', headers(['whsec_new']), body)).toBe(true);
    expect(verify('whsec_old', headers(['whsec_new', 'whsec_old']), body)).toBe(true);
    expect(verify('whsec_other', headers(['whsec_new']), body)).toBe(false);
    expect(verify('whsec_new', headers(['whsec_new']), body.replace('"1"', '"2"'))).toBe(false);
    expect(verify('whsec_new', headers(['whsec_new'], now - 3_600), body)).toBe(false);
  });
});
