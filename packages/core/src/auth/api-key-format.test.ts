import { describe, expect, it } from 'vitest';
import { checkApiKey, generateApiKey, hashApiKey } from './api-key-format.js';

describe('API key format', () => {
  it('generates distinct prefixed keys of 256 random bits whose hash is their SHA-256', () => {
    const keys = Array.from({ length: 50 }, generateApiKey);
    expect(new Set(keys.map((k) => k.key)).size).toBe(50);
    for (const { key, keyHash, prefix } of keys) {
      expect(key).toMatch(/^clk_[A-Za-z0-9_-]{49}$/);
      expect(Buffer.from(key.slice(4, 47), 'base64url')).toHaveLength(32);
      expect(prefix).toBe(key.slice(0, 12));
      expect(keyHash).toMatch(/^[0-9a-f]{64}$/);
      expect(checkApiKey(key)).toBe(keyHash);
      expect(hashApiKey(key)).toBe(keyHash);
    }
  });

  it('refuses every single-character change, so a mistyped key never reaches storage', () => {
    const { key } = generateApiKey();
    for (let i = 4; i < key.length; i++) {
      const changed = `${key.slice(0, i)}${key[i] === 'a' ? 'b' : 'a'}${key.slice(i + 1)}`;
      expect(checkApiKey(changed), `position ${i}`).toBeNull();
    }
  });

  it('refuses other prefixes, lengths and alphabets', () => {
    const { key } = generateApiKey();
    for (const bad of ['', 'clk_', key.slice(0, -1), `${key}A`, `CLK_${key.slice(4)}`, `${key.slice(0, 10)}+${key.slice(11)}`, ` ${key}`]) {
      expect(checkApiKey(bad)).toBeNull();
    }
  });
});
