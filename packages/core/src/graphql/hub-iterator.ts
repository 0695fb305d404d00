import type { EventHub, ExplorerEvents } from '../events/index.js';

/** Items an iterator may hold for a consumer that does not keep up; past them it ends with an error. */
const MAX_QUEUED = 10_000;

/**
 * The items `select` derives from each hub `event`, as an async iterator for a GraphQL
 * subscription. Events are handled one at a time, so items keep the hub's order even when
 * `select` reads storage; `return()` (the client unsubscribed) stops listening.
 */
export function hubIterator<E extends keyof ExplorerEvents, T>(
  hub: EventHub,
  event: E,
  select: (payload: ExplorerEvents[E]) => Promise<readonly T[]> | readonly T[],
): AsyncIterableIterator<T> {
  const queue: T[] = [];
  const waiting: ((result: IteratorResult<T>) => void)[] = [];
  let failure: Error | null = null;
  let done = false;
  let chain = Promise.resolve();

  const push = (item: T) => {
    const next = waiting.shift();
    if (next) next({ value: item, done: false });
    else if (queue.length < MAX_QUEUED) queue.push(item);
    else fail(new Error('subscription fell too far behind'));
  };
  const fail = (error: Error) => {
    failure ??= error;
    stop();
  };
  const listener = (payload: ExplorerEvents[E]) => {
    chain = chain.then(async () => {
      if (done) return;
      try {
        for (const item of await select(payload)) push(item);
      } catch (error) {
        fail(error instanceof Error ? error : new Error(String(error)));
      }
    });
  };
  const stop = () => {
    if (done) return;
    done = true;
    hub.off(event, listener);
    for (const next of waiting.splice(0)) next({ value: undefined, done: true });
  };
  hub.on(event, listener);

  return {
    next() {
      if (queue.length > 0) return Promise.resolve({ value: queue.shift()!, done: false });
      if (failure) return Promise.reject(failure);
      if (done) return Promise.resolve({ value: undefined, done: true });
      return new Promise((resolve) => waiting.push(resolve));
    },
    return() {
      stop();
      queue.length = 0;
      return Promise.resolve({ value: undefined, done: true });
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}
