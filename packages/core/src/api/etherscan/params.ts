import { z } from 'zod';
import { InvalidAddressError, InvalidBlockNumberError } from '../../errors/index.js';
import { parseInput, withError } from '../../http/index.js';
import { addressSchema } from '../../values/hex.js';
import { blockTagText } from '../../values/block-tag.js';
import { EtherscanError, ResultWindowTooLargeError, UnreadParameterError } from './etherscan-errors.js';

/**
 * A request's parameters, query string and body merged (the body wins), with lower-case names:
 * Etherscan clients differ in case (`startBlock`, `constructorArguements`, `evmVersion`).
 */
export type EtherscanParams = Readonly<Record<string, string>>;

/** The query string and body of one request as {@link EtherscanParams}. */
export function mergeParams(query: Readonly<Record<string, string>>, body: Readonly<Record<string, string>> | undefined): EtherscanParams {
  const params: Record<string, string> = {};
  for (const source of [query, body ?? {}]) {
    for (const [name, value] of Object.entries(source)) params[name.toLowerCase()] = value;
  }
  return params;
}

/**
 * Parameters that choose which records an action answers. An action that does not read one would
 * answer something else than was asked while looking right, so such a request is refused.
 */
const SELECTING_PARAMS = ['txhash', 'address', 'contractaddress', 'contractaddresses', 'blockno', 'topic0', 'topic1', 'topic2', 'topic3'];

/**
 * Validates `params` with an object schema (the kernel's rules and error texts), refusing a
 * selecting parameter (`txhash`, `address`, …) the schema does not read.
 */
export function parseParams<T extends z.ZodType>(schema: T, params: EtherscanParams): z.output<T> {
  if (schema instanceof z.ZodObject) {
    const unread = SELECTING_PARAMS.find((name) => params[name] !== undefined && params[name] !== '' && !Object.hasOwn(schema.shape, name));
    if (unread !== undefined) throw new UnreadParameterError(unread);
  }
  return parseInput(schema, params, 'params');
}

/** The most records Etherscan lists for one query, across pages. */
export const RESULT_WINDOW = 10_000;

/** A page number or size; `0` or absent is the default (Etherscan clients send `page=0`). */
export function pageNumber(fallback: number) {
  return z
    .string()
    .regex(/^\d{1,15}$/, 'must be a non-negative integer')
    .optional()
    .transform((value) => (value === undefined || Number(value) === 0 ? fallback : Number(value)));
}

/** `page`, `offset` (default: the whole window) and `sort` (default `asc`) of list actions. */
export const pagingShape = {
  page: pageNumber(1),
  offset: pageNumber(RESULT_WINDOW),
  sort: z.enum(['asc', 'desc'], { message: "must be 'asc' or 'desc'" }).optional().default('asc'),
};

/** Page `page` of `items`, `offset` to a page, for lists read whole before paging. */
export function pageOf<T>(items: readonly T[], paging: { page: number; offset: number }): T[] {
  return items.slice((paging.page - 1) * paging.offset, paging.page * paging.offset);
}

/** Enforces Etherscan's rule `page × offset ≤ 10000`. */
export function checkWindow(paging: { page: number; offset: number }): void {
  if (paging.page * paging.offset > RESULT_WINDOW) throw new ResultWindowTooLargeError();
}

/**
 * A block range's bound: a decimal block number or `latest` (read by `services.blocks.bounds`);
 * malformed → `Error! Invalid block number`.
 */
export const blockBoundParam = withError(blockTagText.optional(), () => new InvalidBlockNumberError());

/** A block tag: `latest`, `pending`, `earliest`, `safe`, `finalized`, or a number in hex or decimal. */
export const blockTagParam = withError(
  z
    .string()
    .regex(/^(latest|pending|earliest|safe|finalized|0x[0-9a-fA-F]{1,16}|\d{1,19})$/)
    .optional()
    .transform((tag) => tag ?? 'latest'),
  () => new InvalidBlockNumberError(),
);

/** A block tag's number (`earliest` is 0), or `null` for the moving tags (`latest`, `pending`, …). */
export function blockNumberOf(tag: string): bigint | null {
  if (tag === 'earliest') return 0n;
  return /^(0x[0-9a-fA-F]+|\d+)$/.test(tag) ? BigInt(tag) : null;
}

const invalidContractAddress = () => new EtherscanError('Error! Invalid contract address format');

/** `contractaddress`: malformed or absent → Etherscan's `Error! Invalid contract address format`. */
export const contractAddressParam = withError(addressSchema.clone(), invalidContractAddress);

/** An optional {@link contractAddressParam}. */
export const optionalContractAddressParam = withError(addressSchema.optional(), invalidContractAddress);

/** A comma-separated list of addresses (at least one; each action sets its own most). */
export const addressListParam = withError(
  z
    .string()
    .transform((value) => value.split(','))
    .pipe(z.array(addressSchema).min(1)),
  () => new InvalidAddressError(),
);
