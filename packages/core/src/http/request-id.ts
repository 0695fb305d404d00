import { randomUUID } from 'node:crypto';

/** The two hex digits of each byte value, so a counter is written without `toString(16)`. */
const HEX_BYTES = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'));

/** Ids that share one leading part: the low 16 bits of the counter are written from {@link HEX_BYTES}. */
const LOW_BITS = 0x10000;

/**
 * Request ids for requests that bring none, in a UUID's shape: 96 random bits drawn once and a
 * 48-bit counter in hex. Unique within the process by the counter and across instances by the
 * random part; they name requests in logs and are no secret, so need not be unpredictable.
 * `Number#toString(16)` on every request cost more than the rest of the id (V8 formats other
 * radixes in its runtime), so the leading part is formatted once per 65,536 ids and the last four
 * digits come from a table.
 */
export function requestIds(): () => string {
  const prefix = randomUUID().slice(0, 24);
  let next = 0;
  let leading = '';
  return () => {
    const low = next % LOW_BITS;
    if (low === 0) leading = prefix + (next / LOW_BITS).toString(16).padStart(8, '0');
    next++;
    return leading + HEX_BYTES[low >>> 8]! + HEX_BYTES[low & 0xff]!;
  };
}
