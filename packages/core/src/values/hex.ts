import { z } from 'zod';
import { InvalidAddressError, InvalidHashError } from '../errors/index.js';
import type { Hex } from '../storage/index.js';
import { withError } from './validation.js';

/** Hashes, addresses and hex data as inputs, each normalized to storage's canonical form (lowercase). */

/** A 0x-prefixed 32-byte hash, in any case. */
export const HASH = /^0x[0-9a-fA-F]{64}$/;
/** A 0x-prefixed 20-byte address, in any case. */
export const ADDRESS = /^0x[0-9a-fA-F]{40}$/;
const HEX_DATA = /^0x([0-9a-fA-F]{2})*$/;

/** A 32-byte hash; malformed → `Error! Invalid transaction hash format`. */
export const hashSchema = withError(
  z
    .string()
    .regex(HASH)
    .transform((v) => v.toLowerCase() as Hex),
  () => new InvalidHashError(),
);

/** A 20-byte address; malformed → `Error! Invalid address format`. */
export const addressSchema = withError(
  z
    .string()
    .regex(ADDRESS)
    .transform((v) => v.toLowerCase() as Hex),
  () => new InvalidAddressError(),
);

/** An optional address (same error when present and malformed). */
export const optionalAddressSchema = withError(addressSchema.optional(), () => new InvalidAddressError());

/** `0x`-prefixed hex data with whole bytes. */
export const hexDataSchema = z
  .string()
  .regex(HEX_DATA, 'must be 0x-prefixed hex with whole bytes')
  .transform((v) => v.toLowerCase() as Hex);
