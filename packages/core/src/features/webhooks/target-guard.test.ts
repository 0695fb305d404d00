import { describe, expect, it } from 'vitest';
import { retryDelay } from './backoff.js';
import { isPublicAddress, resolveTarget, UnsafeTargetError } from './target-guard.js';

describe('the webhook target guard', () => {
  it('refuses private, loopback, link-local and reserved addresses, IPv4 and IPv6, in every embedding of IPv4', () => {
    const refused = [
      '127.0.0.1', '10.0.0.1', '172.16.5.4', '172.31.255.255', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0', '224.0.0.1', '255.255.255.255', '198.18.0.1',
      '::', '::1', 'fe80::1', 'fe80::1%eth0', 'fc00::1', 'fd12:3456::1', 'ff02::1', '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:10.0.0.1', '::127.0.0.1',
      '64:ff9b::a9fe:a9fe', '2002:c0a8:0101::1', '2001:db8::1', 'not an address',
    ];
    const allowed = ['8.8.8.8', '1.1.1.1', '172.32.0.1', '100.128.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8', '64:ff9b::808:808', '2002:0808:0808::1'];
    expect(refused.filter(isPublicAddress)).toEqual([]);
    expect(allowed.filter((address) => !isPublicAddress(address))).toEqual([]);
  });

  it('resolves names and refuses any that lead to a private address, unless allowed', async () => {
    await expect(resolveTarget('http://localhost:8080/x', false)).rejects.toThrow(UnsafeTargetError);
    await expect(resolveTarget('http://[::ffff:127.0.0.1]/x', false)).rejects.toThrow(/resolves to ::ffff:7f00:1/);
    expect(await resolveTarget('http://127.0.0.1:8080/x', true)).toMatchObject({ address: '127.0.0.1', family: 4 });
    expect(await resolveTarget('https://8.8.8.8/x', false)).toMatchObject({ address: '8.8.8.8', family: 4 });
  });

  it('backs off exponentially with jitter, between half and all of the capped doubling', () => {
    for (let attempts = 1; attempts <= 30; attempts++) {
      const ceiling = Math.min(4 * 3_600_000, 5_000 * 2 ** (attempts - 1));
      const delay = retryDelay(attempts, 5_000, 4 * 3_600_000);
      expect(delay).toBeGreaterThanOrEqual(ceiling / 2);
      expect(delay).toBeLessThanOrEqual(ceiling);
    }
    // Retrying at the cap for at least 24 hours takes more than a dozen attempts, spread over hours.
    let total = 0;
    let attempts = 0;
    while (total < 24 * 3_600_000) total += retryDelay(++attempts, 5_000, 4 * 3_600_000);
    expect(attempts).toBeGreaterThan(10);
  });
});
