import type { JsonArrayText } from '../../records/json-array-text.js';

/** Etherscan's answer to every module but `proxy`: `status` '1' with `OK`, or '0' with why. */
export interface EtherscanAnswer<T = unknown> {
  status: '1' | '0';
  message: string;
  result: T;
}

/** A successful answer. */
export function ok<T>(result: T): EtherscanAnswer<T> {
  return { status: '1', message: 'OK', result };
}

/** A refusal: Etherscan puts the reason in `result`. */
export function notOk(reason: string): EtherscanAnswer<string> {
  return { status: '0', message: 'NOTOK', result: reason };
}

/**
 * A list; an empty one is Etherscan's status '0' with `none` as the message (`No transactions
 * found`, `No records found`) and `[]`, which clients treat as "nothing", not as a failure.
 */
export function list<T>(items: T[], none: string): EtherscanAnswer<T[]>;
/** A list already serialised (see {@link JsonArrayText}); answered as its array would be. */
export function list<T>(items: T[] | JsonArrayText<T>, none: string): EtherscanAnswer<T[] | JsonArrayText<T>>;
export function list<T>(items: T[] | JsonArrayText<T>, none: string): EtherscanAnswer<T[] | JsonArrayText<T>> {
  return items.length > 0 ? ok(items) : { status: '0', message: none, result: [] };
}
