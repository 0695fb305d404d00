/**
 * A typed announcement one module makes and later modules listen to: how something made early
 * reaches something made after it (a revoked key reaches the sockets opened with it) without a
 * closure over a later declaration. Listeners run in the order they were added, synchronously.
 */
export class Signal<T> {
  private readonly listeners: ((value: T) => void)[] = [];

  listen(listener: (value: T) => void): void {
    this.listeners.push(listener);
  }

  emit(value: T): void {
    for (const listener of this.listeners) listener(value);
  }
}
