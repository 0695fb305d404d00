import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';

/** Where a delivery may connect: the address its host resolved to, checked. */
export interface WebhookTarget {
  url: URL;
  address: string;
  family: 4 | 6;
}

/** Why a target URL was refused (SSRF): the message names the address. */
export class UnsafeTargetError extends Error {}

/**
 * Resolves `url`'s host and refuses it when any address it resolves to is private, loopback,
 * link-local or otherwise not on the public internet (unless `allowPrivate`). The caller
 * connects to the returned address, so a second DNS answer cannot swap in another (rebinding).
 */
export async function resolveTarget(url: string, allowPrivate: boolean): Promise<WebhookTarget> {
  const parsed = new URL(url);
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') throw new UnsafeTargetError('must be an http or https URL');
  const host = parsed.hostname.replace(/^\[(.*)\]$/, '$1');
  const family = isIP(host);
  let addresses: { address: string; family: number }[];
  if (family !== 0) addresses = [{ address: host, family }];
  else {
    try {
      addresses = await lookup(host, { all: true, verbatim: true });
    } catch {
      throw new UnsafeTargetError(`host ${host} does not resolve`);
    }
  }
  if (!allowPrivate) {
    const refused = addresses.find(({ address }) => !isPublicAddress(address));
    if (refused) throw new UnsafeTargetError(`resolves to ${refused.address}, a private, loopback or link-local address`);
  }
  const first = addresses[0]!;
  return { url: parsed, address: first.address, family: first.family === 6 ? 6 : 4 };
}

/** IPv4 ranges that are not public unicast (RFC 6890 special-purpose, multicast, reserved). */
const PRIVATE_V4: readonly [number, number][] = [
  ['0.0.0.0', 8], ['10.0.0.0', 8], ['100.64.0.0', 10], ['127.0.0.0', 8], ['169.254.0.0', 16], ['172.16.0.0', 12],
  ['192.0.0.0', 24], ['192.0.2.0', 24], ['192.88.99.0', 24], ['192.168.0.0', 16], ['198.18.0.0', 15], ['198.51.100.0', 24],
  ['203.0.113.0', 24], ['224.0.0.0', 4], ['240.0.0.0', 4],
].map(([base, bits]) => [v4Number(base as string), bits as number]);

/** Whether `address` (IPv4 or IPv6 text) is public unicast; IPv4 inside IPv6 (mapped, compatible, NAT64) is judged as IPv4. */
export function isPublicAddress(address: string): boolean {
  if (isIP(address) === 4) return isPublicV4(v4Number(address));
  const groups = v6Groups(address);
  if (!groups) return false;
  const embedded = (groups[6]! << 16) | groups[7]!;
  const zeros = (n: number) => groups.slice(0, n).every((group) => group === 0);
  // ::ffff:a.b.c.d (mapped), ::a.b.c.d (compatible; also :: and ::1), 64:ff9b::a.b.c.d (NAT64).
  if (zeros(5) && groups[5] === 0xffff) return isPublicV4(embedded >>> 0);
  if (zeros(6)) return false;
  if (groups[0] === 0x64 && groups[1] === 0xff9b && groups.slice(2, 6).every((group) => group === 0)) return isPublicV4(embedded >>> 0);
  const first = groups[0]!;
  if ((first & 0xfe00) === 0xfc00) return false; // fc00::/7 unique local
  if ((first & 0xffc0) === 0xfe80) return false; // fe80::/10 link-local
  if ((first & 0xffc0) === 0xfec0) return false; // fec0::/10 site-local (deprecated)
  if ((first & 0xff00) === 0xff00) return false; // ff00::/8 multicast
  if (first === 0x2001 && groups[1] === 0x0db8) return false; // documentation
  if (first === 0x2002) return isPublicV4(((groups[1]! << 16) | groups[2]!) >>> 0); // 6to4 carries an IPv4
  return true;
}

function isPublicV4(value: number): boolean {
  return !PRIVATE_V4.some(([base, bits]) => (value >>> (32 - bits)) === (base >>> (32 - bits)));
}

function v4Number(address: string): number {
  return address.split('.').reduce((sum, part) => sum * 256 + Number(part), 0) >>> 0;
}

/** The eight 16-bit groups of an IPv6 address (zone dropped, embedded IPv4 read), or `null`. */
function v6Groups(address: string): number[] | null {
  let text = address.split('%')[0]!.toLowerCase();
  const v4 = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (v4) {
    const n = v4Number(v4[1]!);
    text = `${text.slice(0, -v4[1]!.length)}${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
  }
  const [head, tail] = text.split('::') as [string, string | undefined];
  const part = (s: string | undefined) => (s ? s.split(':').map((group) => parseInt(group, 16)) : []);
  const left = part(head);
  const right = part(tail);
  const groups = tail === undefined ? left : [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
  return groups.length === 8 && groups.every((group) => Number.isInteger(group) && group >= 0 && group <= 0xffff) ? groups : null;
}
