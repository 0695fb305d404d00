import { hash, randomBytes } from 'node:crypto';
import { crc32 } from 'node:zlib';

/** Every key starts with this, so leaked keys are easy to recognise (and to scan for). */
export const API_KEY_PREFIX = 'clk_';
/** 32 random bytes, base64url: 43 characters. */
const SECRET_LENGTH = 43;
/** CRC-32 of prefix and secret, 4 bytes base64url: 6 characters. */
const CHECKSUM_LENGTH = 6;
const FORMAT = new RegExp(`^${API_KEY_PREFIX}[A-Za-z0-9_-]{${SECRET_LENGTH + CHECKSUM_LENGTH}}$`);
/** How much of a key is kept in clear to tell keys apart in a list. */
const SHOWN_LENGTH = API_KEY_PREFIX.length + 8;

/** A new key: the secret (shown once), its hash (stored) and the shown part. */
export interface GeneratedApiKey {
  key: string;
  keyHash: string;
  prefix: string;
}

/**
 * Creates a key like GitHub's tokens: a fixed prefix, 256 random bits and a CRC-32 checksum, so
 * a mistyped or made-up key is refused before any storage lookup.
 */
export function generateApiKey(): GeneratedApiKey {
  const body = `${API_KEY_PREFIX}${randomBytes(32).toString('base64url')}`;
  const key = `${body}${checksum(body)}`;
  return { key, keyHash: hashApiKey(key), prefix: key.slice(0, SHOWN_LENGTH) };
}

/** The stored hash of `key` when it is well-formed with a valid checksum, else `null`. */
export function checkApiKey(key: string): string | null {
  if (!FORMAT.test(key)) return null;
  const body = key.slice(0, -CHECKSUM_LENGTH);
  if (checksum(body) !== key.slice(-CHECKSUM_LENGTH)) return null;
  return hashApiKey(key);
}

/**
 * SHA-256, hex. A key carries 256 random bits, so a fast unsalted hash is enough: there is no
 * dictionary to guess from, and lookups by hash stay one index probe.
 */
export function hashApiKey(key: string): string {
  // One-shot `hash` skips the Hash object: half the cost of createHash on every keyed request.
  return hash('sha256', key, 'hex');
}

function checksum(body: string): string {
  const bytes = Buffer.alloc(4);
  bytes.writeUInt32BE(crc32(body));
  return bytes.toString('base64url');
}
