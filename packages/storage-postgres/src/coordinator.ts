import type { Coordinator } from '@chainlens/core';
import pg from 'pg';
import { clientKeepAlive, setServerKeepAlive } from './keepalive.js';
import type { ResolvedPostgresStorageOptions } from './options.js';

/**
 * The cluster coordinator on PostgreSQL. The indexer lease is a session advisory lock held on a
 * dedicated connection: when the holder dies or its connection drops, the server releases the
 * lock and another instance takes it on its next try. TCP keepalive on both ends bounds how long
 * that takes when the holder's host vanishes without closing its connections. The bus is
 * LISTEN/NOTIFY on a channel of the schema, so instances on different schemas never hear each other.
 */
export class PostgresCoordinator implements Coordinator {
  readonly #options: ResolvedPostgresStorageOptions;
  readonly #lockKey: string;
  readonly #channel: string;
  #leaseClient: pg.Client | null = null;
  #listenClient: pg.Client | null = null;
  #held = false;
  #closed = false;
  /** The last notification sent, so the next waits for it. */
  #publishing: Promise<unknown> = Promise.resolve();

  constructor(options: ResolvedPostgresStorageOptions) {
    this.#options = options;
    this.#lockKey = `chainlens:indexer:${options.schema}`;
    this.#channel = `chainlens_events_${options.schema}`;
  }

  async acquireLease(): Promise<boolean> {
    if (this.#closed) return false;
    if (this.#held) return true;
    const client = (this.#leaseClient ??= await this.#connect(() => {
      this.#held = false;
      this.#leaseClient = null;
    }));
    const { rows } = await client.query<{ locked: boolean }>('SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS locked', [this.#lockKey]);
    this.#held = rows[0]!.locked;
    return this.#held;
  }

  holdsLease(): boolean {
    return this.#held;
  }

  async releaseLease(): Promise<void> {
    const client = this.#leaseClient;
    this.#held = false;
    this.#leaseClient = null;
    // Ending the session releases the lock, even where the unlock query cannot be sent.
    await client?.end().catch(() => undefined);
  }

  async publish(message: string): Promise<void> {
    const client = this.#leaseClient ?? this.#listenClient;
    if (!client) throw new Error('postgresCoordinator: publish needs the lease or a subscription');
    // One notification at a time, in order: the indexer announces blocks without waiting, and a
    // client handed a query while one runs queues it itself, which pg deprecates (gone in pg 9).
    const sent = this.#publishing.then(() => client.query('SELECT pg_notify($1, $2)', [this.#channel, message]));
    this.#publishing = sent.catch(() => undefined);
    await sent;
  }

  async subscribe(listener: (message: string) => void): Promise<void> {
    const client = await this.#connect(() => {
      this.#listenClient = null;
      // Keep listening after a dropped connection; events missed meanwhile are in storage.
      if (!this.#closed) setTimeout(() => void this.subscribe(listener).catch(() => undefined), 1_000).unref();
    });
    client.on('notification', (notification) => {
      if (notification.channel === this.#channel && notification.payload !== undefined) listener(notification.payload);
    });
    await client.query(`LISTEN "${this.#channel}"`);
    this.#listenClient = client;
  }

  async close(): Promise<void> {
    this.#closed = true;
    await this.releaseLease();
    const listen = this.#listenClient;
    this.#listenClient = null;
    await listen?.end().catch(() => undefined);
  }

  /** A dedicated connection; `onLost` runs once when it breaks or ends. */
  async #connect(onLost: () => void): Promise<pg.Client> {
    const client = new pg.Client({ connectionString: this.#options.connectionString, ...clientKeepAlive(this.#options) });
    let lost = false;
    const lose = (error?: Error) => {
      if (lost) return;
      lost = true;
      if (error && !this.#closed) this.#options.logger?.warn({ err: error }, 'postgresCoordinator: connection lost');
      onLost();
    };
    client.on('error', lose);
    client.on('end', () => lose());
    await client.connect();
    await setServerKeepAlive(client, this.#options).catch((error: unknown) => {
      this.#options.logger?.warn({ err: error }, 'postgresCoordinator: could not set the server-side TCP keepalive');
    });
    // `onLost` has already run for a connection that broke while opening: never hand it out.
    if (lost) throw new Error('postgresCoordinator: the connection broke while it was opened');
    return client;
  }
}
