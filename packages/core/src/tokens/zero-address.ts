import type { Hex } from '../storage/records.js';

/** The zero address: where mints come from and burns go. It never holds a token balance. */
export const ZERO_ADDRESS: Hex = `0x${'00'.repeat(20)}`;
