/**
 * Lets several explorer instances on one storage act as one explorer: exactly one of them holds
 * the indexer lease and indexes; every instance hears the indexer's events through the bus.
 *
 * Rules for implementations:
 * - `acquireLease` MUST NOT wait for a lease another instance holds: it resolves `false`.
 * - A lease MUST end when its holder dies (process killed, connection lost), so another instance
 *   can take over; `holdsLease` turns `false` as soon as the holder can tell.
 * - `publish` reaches every subscribed instance, its own included, in publish order.
 */
export interface Coordinator {
  /** Tries to take the indexer lease; resolves whether this instance holds it now. */
  acquireLease(): Promise<boolean>;
  /** Whether this instance still holds the lease. */
  holdsLease(): boolean;
  /** Gives the lease up (idempotent). */
  releaseLease(): Promise<void>;
  /** Sends `message` (at most 7,900 bytes) to every subscribed instance. */
  publish(message: string): Promise<void>;
  /** Calls `listener` with every message published from now on. */
  subscribe(listener: (message: string) => void): Promise<void>;
  /** Releases the lease and every connection (idempotent). */
  close(): Promise<void>;
}

/**
 * The coordinator of a single process (the default): the lease is always free, and the bus is
 * a no-op, since the in-process hub already carries every event.
 */
export function localCoordinator(): Coordinator {
  let held = false;
  return {
    async acquireLease() {
      held = true;
      return true;
    },
    holdsLease: () => held,
    async releaseLease() {
      held = false;
    },
    async publish() {},
    async subscribe() {},
    async close() {
      held = false;
    },
  };
}
