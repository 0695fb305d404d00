import { createSourceEventStream, execute, type ExecutionArgs, type ExecutionResult } from 'graphql';

/**
 * GraphQL's `subscribe`, with each event's execution shared: subscriptions of one operation (the
 * same document, variables and caller, told by `keyOf`) whose source hands them the same item
 * (see `HubFeeds`) execute it once, and every one of them sends that one result.
 */
export function sharedSubscribe(keyOf: (args: ExecutionArgs) => string | undefined) {
  const executions = new WeakMap<object, Map<string, ExecutionResult | Promise<ExecutionResult>>>();
  const executeOnce = (args: ExecutionArgs, key: string | undefined, item: unknown) => {
    const run = () => execute({ ...args, rootValue: item });
    if (key === undefined || typeof item !== 'object' || item === null) return run();
    let byKey = executions.get(item);
    if (!byKey) executions.set(item, (byKey = new Map()));
    let result = byKey.get(key);
    if (result === undefined) byKey.set(key, (result = run()));
    return result;
  };
  return async (args: ExecutionArgs): Promise<AsyncIterableIterator<ExecutionResult> | ExecutionResult> => {
    const source = await createSourceEventStream(args);
    if (!(Symbol.asyncIterator in source)) return source;
    const key = keyOf(args);
    const items = source[Symbol.asyncIterator]();
    const results: AsyncIterableIterator<ExecutionResult> = {
      async next() {
        const next = await items.next();
        return next.done ? { value: undefined, done: true } : { value: await executeOnce(args, key, next.value), done: false };
      },
      async return() {
        await items.return?.();
        return { value: undefined, done: true };
      },
      async throw(error: unknown) {
        await items.return?.();
        throw error;
      },
      [Symbol.asyncIterator]() {
        return results;
      },
    };
    return results;
  };
}
