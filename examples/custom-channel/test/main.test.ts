import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';

const MAIN = fileURLToPath(new URL('../src/main.ts', import.meta.url));

it('the custom channel example publishes a large transfer that its client receives', async () => {
  const { stdout } = await promisify(execFile)(process.execPath, ['--conditions=source', '--import', 'tsx', MAIN], { timeout: 60_000 });
  const line = /^received (.+)$/m.exec(stdout)?.[1];
  expect(line).toBeDefined();
  expect(JSON.parse(line!)).toMatchObject({
    sequence: 1,
    channel: 'large_transfers',
    address: '0x70997970c51812dc3a010c7d01b50e0d17dc79c8',
    blockNumber: expect.stringMatching(/^\d+$/),
    data: { from: '0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266', ether: '2', hash: expect.stringMatching(/^0x[0-9a-f]{64}$/) },
  });
});
