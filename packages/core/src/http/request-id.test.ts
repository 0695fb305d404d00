import { describe, expect, it } from 'vitest';
import { requestIds } from './request-id.js';

describe('requestIds', () => {
  it('counts in the last 12 hex digits of a UUID-shaped id, across the table-written low 16 bits', () => {
    const next = requestIds();
    const ids = Array.from({ length: 0x10000 + 2 }, next);
    const prefix = ids[0]!.slice(0, 24);
    expect(prefix).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-$/);
    expect(ids).toEqual(ids.map((_, index) => prefix + index.toString(16).padStart(12, '0')));
  });

  it('draws a new random part for each generator', () => {
    expect(requestIds()().slice(0, 24)).not.toBe(requestIds()().slice(0, 24));
  });
});
