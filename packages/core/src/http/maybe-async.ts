/**
 * `next(value)`, after `value` settles when it is a promise: a value already there is used at
 * once, without the turn of the event loop an `await` costs on the request path.
 */
export function after<T, R>(value: T | Promise<T>, next: (value: T) => R | Promise<R>): R | Promise<R> {
  return value instanceof Promise ? value.then(next) : next(value);
}
