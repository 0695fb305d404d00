import { randomUUID } from 'node:crypto';
import {
  webhookBundleKeys,
  webhookOutbox,
  webhookTraceKeys,
  webhookTraceOutbox,
  type BlockBundle,
  type BlockTraces,
  type Hex,
  type StoredWebhook,
  type StoredWebhookDelivery,
  type WebhookAttemptOutcome,
  type WebhookChanges,
  type WebhookClaim,
  type WebhookDeliveriesQuery,
  type WebhookOutboxEntry,
  type WebhookStorage,
} from '@chainlens/core';
import { escapeIdentifier, type Pool, type PoolClient } from 'pg';
import { isUuid } from './account-queries.js';
import { byteaArray, toBytea } from './codec.js';
import { inTransaction } from './transaction.js';

const HOOK_COLUMNS = `id, user_id AS "userId", url, events, description, secret, previous_secret AS "previousSecret",
  previous_secret_expires_at AS "previousSecretExpiresAt", active, disabled_reason AS "disabledReason",
  failing_since AS "failingSince", created_at AS "createdAt", updated_at AS "updatedAt",
  ARRAY(SELECT '0x' || encode(address, 'hex') FROM {subscriptions} s WHERE s.webhook_id = h.id AND s.kind = 'address' ORDER BY address) AS addresses,
  ARRAY(SELECT '0x' || encode(address, 'hex') FROM {subscriptions} s WHERE s.webhook_id = h.id AND s.kind = 'token' ORDER BY address) AS tokens`;

const DELIVERY_COLUMNS = `d.id, d.webhook_id AS "webhookId", d.sequence, d.event, d.block_number AS "blockNumber",
  d.block_hash AS "blockHash", d.subject, d.removed, d.payload, d.status, d.attempts, d.last_status_code AS "lastStatusCode",
  d.last_error AS "lastError", d.created_at AS "createdAt", d.next_attempt_at AS "nextAttemptAt", d.delivered_at AS "deliveredAt"`;

/** Every SQL text of the webhook role, on the tables of one schema. */
function webhookStatements(schema: string) {
  const hooks = `${escapeIdentifier(schema)}.webhooks`;
  const subscriptions = `${escapeIdentifier(schema)}.webhook_subscriptions`;
  const deliveries = `${escapeIdentifier(schema)}.webhook_deliveries`;
  const hookColumns = HOOK_COLUMNS.replaceAll('{subscriptions}', subscriptions);
  const nextSequence = `(SELECT coalesce(max(sequence), 0) FROM ${deliveries})`;
  return {
    lockUser: 'SELECT pg_advisory_xact_lock(hashtextextended($1, 0))',
    countOwned: `SELECT count(*)::int AS n FROM ${hooks} WHERE user_id = $1`,
    insertHook: `INSERT INTO ${hooks} (id, user_id, url, events, description, secret, previous_secret, previous_secret_expires_at,
        active, disabled_reason, failing_since, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13)`,
    insertSubscriptions: `INSERT INTO ${subscriptions} (webhook_id, kind, address) SELECT $1, $2, unnest($3::bytea[])`,
    deleteSubscriptions: `DELETE FROM ${subscriptions} WHERE webhook_id = $1 AND kind = $2`,
    getHook: `SELECT ${hookColumns} FROM ${hooks} h WHERE id = $1 AND ($2::uuid IS NULL OR user_id = $2)`,
    lockHook: `SELECT id FROM ${hooks} WHERE id = $1 AND ($2::uuid IS NULL OR user_id = $2) FOR UPDATE`,
    listHooks: `SELECT ${hookColumns} FROM ${hooks} h WHERE user_id = $1 ORDER BY created_at DESC, id DESC`,
    updateHook: `UPDATE ${hooks} SET url = coalesce($2, url), events = coalesce($3, events),
        description = CASE WHEN $4 THEN $5 ELSE description END, secret = coalesce($6, secret),
        previous_secret = CASE WHEN $7 THEN $8 ELSE previous_secret END,
        previous_secret_expires_at = CASE WHEN $7 THEN $9 ELSE previous_secret_expires_at END,
        active = coalesce($10, active), disabled_reason = CASE WHEN $11 THEN $12 ELSE disabled_reason END,
        failing_since = CASE WHEN $13 THEN $14 ELSE failing_since END, updated_at = coalesce($15, updated_at)
      WHERE id = $1`,
    deleteHook: `DELETE FROM ${hooks} WHERE id = $1 AND user_id = $2`,
    listDeliveries: `SELECT ${DELIVERY_COLUMNS} FROM ${deliveries} d WHERE webhook_id = $1 AND ($3::int8 IS NULL OR sequence < $3)
      ORDER BY sequence DESC LIMIT $2`,
    getDelivery: `SELECT ${DELIVERY_COLUMNS} FROM ${deliveries} d WHERE webhook_id = $1 AND id = $2`,
    redeliver: `UPDATE ${deliveries} d SET status = 'pending', next_attempt_at = $3, delivered_at = NULL
      WHERE webhook_id = $1 AND id = $2 RETURNING ${DELIVERY_COLUMNS}`,
    // Per active webhook one probe of the pending index for its head (in block order: a traced
    // block's transfers, enqueued later, go before the next block's); a head of a block still to
    // trace ($5) waits. The UPDATE checks the lease again on the row as committed, so of two
    // concurrent claims of one head only one wins.
    claim: `WITH due AS (
        SELECT d.id FROM ${hooks} w
        CROSS JOIN LATERAL (
          SELECT id, sequence, block_number, removed, next_attempt_at, lease_owner, lease_until FROM ${deliveries} p
          WHERE p.webhook_id = w.id AND p.status = 'pending' ORDER BY p.block_number, p.sequence LIMIT 1
        ) d
        WHERE w.active AND d.next_attempt_at <= $2 AND (d.lease_owner IS NULL OR d.lease_until <= $2)
          AND ($5::int8 IS NULL OR d.removed OR d.block_number <= $5 OR NOT 'address_activity' = ANY(w.events))
        ORDER BY d.sequence LIMIT $4
      ), locked AS (
        SELECT d.id FROM ${deliveries} d JOIN due USING (id) FOR UPDATE OF d SKIP LOCKED
      )
      UPDATE ${deliveries} d SET lease_owner = $1, lease_until = $2::int8 + $3::int8 FROM locked
      WHERE d.id = locked.id AND d.status = 'pending' AND (d.lease_owner IS NULL OR d.lease_until <= $2)
      RETURNING ${DELIVERY_COLUMNS}`,
    setPayload: `UPDATE ${deliveries} SET payload = $3 WHERE id = $1 AND lease_owner = $2 AND payload IS NULL`,
    settle: `UPDATE ${deliveries} SET status = $3, attempts = $4, last_status_code = $5, last_error = $6, next_attempt_at = $7,
        delivered_at = $8, lease_owner = NULL, lease_until = NULL WHERE id = $1 AND lease_owner = $2`,
    // Done with and old: through the index of settled ones, and the pending index of disabled webhooks.
    prune: `DELETE FROM ${deliveries} WHERE id IN (
        (SELECT id FROM ${deliveries} WHERE status <> 'pending' AND coalesce(delivered_at, created_at) < $1 LIMIT $2)
        UNION ALL
        (SELECT d.id FROM ${hooks} w JOIN ${deliveries} d ON d.webhook_id = w.id
          WHERE NOT w.active AND d.status = 'pending' AND d.created_at < $1 LIMIT $2)
        LIMIT $2
      )`,
    countPending: `SELECT count(*)::int AS n FROM ${deliveries} WHERE status = 'pending'`,
    matches: `SELECT w.id, s.kind, s.address FROM ${subscriptions} s JOIN ${hooks} w ON w.id = s.webhook_id
        WHERE s.address = ANY($1::bytea[]) AND w.active
          AND ((s.kind = 'address' AND 'address_activity' = ANY(w.events)) OR (s.kind = 'token' AND 'token_transfer' = ANY(w.events)))
      UNION ALL
      SELECT id, 'block', NULL FROM ${hooks} WHERE active AND 'block' = ANY(events)`,
    addressWatchers: `SELECT w.id, s.address FROM ${subscriptions} s JOIN ${hooks} w ON w.id = s.webhook_id
        WHERE s.address = ANY($1::bytea[]) AND s.kind = 'address' AND w.active AND 'address_activity' = ANY(w.events)`,
    enqueue: `INSERT INTO ${deliveries} (id, webhook_id, sequence, event, block_number, block_hash, subject, removed, status, attempts,
        created_at, next_attempt_at)
      SELECT u.id, u.webhook_id, ${nextSequence} + u.ord, u.event, u.block_number, u.block_hash, u.subject, false, 'pending', 0, $7, $7
      FROM unnest($1::uuid[], $2::uuid[], $3::text[], $4::int8[], $5::bytea[], $6::jsonb[]) WITH ORDINALITY
        AS u(id, webhook_id, event, block_number, block_hash, subject, ord)`,
    // Never-attempted deliveries of removed blocks go (nobody was told); each told one gets its
    // `removed: true` notice, in the order they were told, and is marked so it gets only one.
    rollback: `WITH dropped AS (
        DELETE FROM ${deliveries} WHERE block_number > $1 AND NOT removed AND NOT retracted AND payload IS NULL
      ), told AS (
        UPDATE ${deliveries} SET retracted = true WHERE block_number > $1 AND NOT removed AND NOT retracted AND payload IS NOT NULL
        RETURNING webhook_id, sequence, event, block_number, block_hash, subject, payload
      )
      INSERT INTO ${deliveries} (id, webhook_id, sequence, event, block_number, block_hash, subject, removed, payload, status, attempts,
        created_at, next_attempt_at)
      SELECT gen_random_uuid(), webhook_id, ${nextSequence} + row_number() OVER (ORDER BY sequence), event, block_number, block_hash,
        subject, true, payload, 'pending', 0, $2, $2
      FROM told`,
  };
}

type Statements = ReturnType<typeof webhookStatements>;
type Row = Record<string, unknown>;

/** The webhook role of `PostgresStorage` (see `WebhookStorage`), on its primary pool. */
export class PostgresWebhooks implements WebhookStorage {
  readonly #sql: Statements;

  constructor(
    private readonly pool: Pool,
    private readonly schema: string,
  ) {
    this.#sql = webhookStatements(schema);
  }

  async createWebhook(webhook: StoredWebhook, maxPerUser: number): Promise<boolean> {
    return inTransaction(this.pool, async (client) => {
      // One owner's creations take turns: each counts after the one before it committed.
      await client.query(this.#sql.lockUser, [`chainlens:webhooks:${this.schema}:${webhook.userId}`]);
      const { rows } = await client.query<{ n: number }>(this.#sql.countOwned, [webhook.userId]);
      if (rows[0]!.n >= maxPerUser) return false;
      const w = webhook;
      await client.query(this.#sql.insertHook, [
        w.id, w.userId, w.url, w.events, w.description, w.secret, w.previousSecret, w.previousSecretExpiresAt, w.active, w.disabledReason,
        w.failingSince, w.createdAt, w.updatedAt,
      ]);
      await this.#subscribe(client, w.id, 'address', w.addresses);
      await this.#subscribe(client, w.id, 'token', w.tokens);
      return true;
    });
  }

  async getWebhook(id: string, ownerId?: string): Promise<StoredWebhook | null> {
    if (!isUuid(id) || (ownerId !== undefined && !isUuid(ownerId))) return null;
    const { rows } = await this.pool.query<Row>(this.#sql.getHook, [id, ownerId ?? null]);
    return rows[0] ? toHook(rows[0]) : null;
  }

  async listWebhooks(userId: string): Promise<StoredWebhook[]> {
    if (!isUuid(userId)) return [];
    const { rows } = await this.pool.query<Row>(this.#sql.listHooks, [userId]);
    return rows.map(toHook);
  }

  async updateWebhook(id: string, changes: WebhookChanges, ownerId?: string): Promise<StoredWebhook | null> {
    if (!isUuid(id) || (ownerId !== undefined && !isUuid(ownerId))) return null;
    const c = changes;
    const found = await inTransaction(this.pool, async (client) => {
      const { rows } = await client.query(this.#sql.lockHook, [id, ownerId ?? null]);
      if (rows.length === 0) return false;
      await client.query(this.#sql.updateHook, [
        id, c.url ?? null, c.events ?? null, c.description !== undefined, c.description ?? null, c.secret ?? null,
        c.previousSecret !== undefined, c.previousSecret ?? null, c.previousSecretExpiresAt ?? null, c.active ?? null,
        c.disabledReason !== undefined, c.disabledReason ?? null, c.failingSince !== undefined, c.failingSince ?? null, c.updatedAt ?? null,
      ]);
      if (c.addresses) {
        await client.query(this.#sql.deleteSubscriptions, [id, 'address']);
        await this.#subscribe(client, id, 'address', c.addresses);
      }
      if (c.tokens) {
        await client.query(this.#sql.deleteSubscriptions, [id, 'token']);
        await this.#subscribe(client, id, 'token', c.tokens);
      }
      return true;
    });
    return found ? this.getWebhook(id) : null;
  }

  async deleteWebhook(id: string, ownerId: string): Promise<boolean> {
    if (!isUuid(id) || !isUuid(ownerId)) return false;
    const { rowCount } = await this.pool.query(this.#sql.deleteHook, [id, ownerId]);
    return rowCount === 1;
  }

  async listWebhookDeliveries(query: WebhookDeliveriesQuery): Promise<StoredWebhookDelivery[]> {
    if (!isUuid(query.webhookId)) return [];
    const { rows } = await this.pool.query<Row>(this.#sql.listDeliveries, [query.webhookId, query.limit, query.beforeSequence ?? null]);
    return rows.map(toDelivery);
  }

  async getWebhookDelivery(webhookId: string, id: string): Promise<StoredWebhookDelivery | null> {
    if (!isUuid(webhookId) || !isUuid(id)) return null;
    const { rows } = await this.pool.query<Row>(this.#sql.getDelivery, [webhookId, id]);
    return rows[0] ? toDelivery(rows[0]) : null;
  }

  async redeliverWebhookDelivery(webhookId: string, id: string, now: number): Promise<StoredWebhookDelivery | null> {
    if (!isUuid(webhookId) || !isUuid(id)) return null;
    const { rows } = await this.pool.query<Row>(this.#sql.redeliver, [webhookId, id, now]);
    return rows[0] ? toDelivery(rows[0]) : null;
  }

  async claimWebhookDeliveries(claim: WebhookClaim): Promise<StoredWebhookDelivery[]> {
    const tracedThrough = claim.tracedThrough == null ? null : claim.tracedThrough.toString();
    const { rows } = await this.pool.query<Row>(this.#sql.claim, [claim.owner, claim.now, claim.leaseMs, claim.limit, tracedThrough]);
    return rows.map(toDelivery).sort((a, b) => a.sequence - b.sequence);
  }

  async setWebhookPayload(id: string, owner: string, payload: string): Promise<boolean> {
    const { rowCount } = await this.pool.query(this.#sql.setPayload, [id, owner, payload]);
    return rowCount === 1;
  }

  async settleWebhookDelivery(id: string, owner: string, o: WebhookAttemptOutcome): Promise<boolean> {
    const { rowCount } = await this.pool.query(this.#sql.settle, [id, owner, o.status, o.attempts, o.lastStatusCode, o.lastError, o.nextAttemptAt, o.deliveredAt]);
    return rowCount === 1;
  }

  async pruneWebhookDeliveries(before: number, limit: number): Promise<number> {
    const { rowCount } = await this.pool.query(this.#sql.prune, [before, limit]);
    return rowCount ?? 0;
  }

  async countPendingWebhookDeliveries(): Promise<number> {
    const { rows } = await this.pool.query<{ n: number }>(this.#sql.countPending);
    return rows[0]!.n;
  }

  /** Enqueues, inside the block write's transaction on `client`, what `bundles` bring the active webhooks. */
  async enqueue(client: PoolClient, bundles: readonly BlockBundle[], now: number): Promise<void> {
    const addresses = new Set<Hex>();
    for (const bundle of bundles) {
      const keys = webhookBundleKeys(bundle);
      for (const address of [...keys.addresses, ...keys.tokens]) addresses.add(address);
    }
    const { rows } = await client.query<{ id: string; kind: string; address: Hex | null }>(this.#sql.matches, [byteaArray([...addresses])]);
    if (rows.length === 0) return;
    const blockHooks = rows.filter((row) => row.kind === 'block').map((row) => row.id);
    const byAddress = (kind: string) => {
      const found = new Map<Hex, string[]>();
      for (const row of rows) if (row.kind === kind) found.set(row.address!, [...(found.get(row.address!) ?? []), row.id]);
      return found;
    };
    const matches = { blockHooks, addressHooks: byAddress('address'), tokenHooks: byAddress('token') };
    await this.#insert(client, bundles.flatMap((bundle) => webhookOutbox(bundle, matches)), now);
  }

  /** Enqueues, inside the trace write's transaction on `client`, the internal transfers of `traces` the active webhooks watch. */
  async enqueueTraces(client: PoolClient, traces: readonly BlockTraces[], now: number): Promise<void> {
    const addresses = webhookTraceKeys(traces);
    if (addresses.length === 0) return;
    const { rows } = await client.query<{ id: string; address: Hex }>(this.#sql.addressWatchers, [byteaArray(addresses)]);
    if (rows.length === 0) return;
    const addressHooks = new Map<Hex, string[]>();
    for (const row of rows) addressHooks.set(row.address, [...(addressHooks.get(row.address) ?? []), row.id]);
    await this.#insert(client, traces.flatMap((entry) => webhookTraceOutbox(entry, addressHooks)), now);
  }

  async #insert(client: PoolClient, entries: readonly WebhookOutboxEntry[], now: number): Promise<void> {
    if (entries.length === 0) return;
    await client.query(this.#sql.enqueue, [
      entries.map(() => randomUUID()),
      entries.map((entry) => entry.webhookId),
      entries.map((entry) => entry.event),
      entries.map((entry) => entry.blockNumber.toString()),
      entries.map((entry) => toBytea(entry.blockHash)),
      entries.map((entry) => JSON.stringify(entry.subject)),
      now,
    ]);
  }

  /** Takes the outbox back with the blocks above `blockNumber`, inside the rollback's transaction on `client`. */
  async rollback(client: PoolClient, blockNumber: bigint, now: number): Promise<void> {
    await client.query(this.#sql.rollback, [blockNumber.toString(), now]);
  }

  async #subscribe(client: PoolClient, id: string, kind: 'address' | 'token', addresses: readonly Hex[]): Promise<void> {
    if (addresses.length > 0) await client.query(this.#sql.insertSubscriptions, [id, kind, byteaArray(addresses)]);
  }
}

const ms = (value: unknown) => (value === null ? null : Number(value));

function toHook(row: Row): StoredWebhook {
  return {
    id: row.id as string,
    userId: row.userId as string,
    url: row.url as string,
    events: row.events as StoredWebhook['events'],
    addresses: row.addresses as Hex[],
    tokens: row.tokens as Hex[],
    description: row.description as string | null,
    secret: row.secret as string,
    previousSecret: row.previousSecret as string | null,
    previousSecretExpiresAt: ms(row.previousSecretExpiresAt),
    active: row.active as boolean,
    disabledReason: row.disabledReason as string | null,
    failingSince: ms(row.failingSince),
    createdAt: Number(row.createdAt),
    updatedAt: Number(row.updatedAt),
  };
}

function toDelivery(row: Row): StoredWebhookDelivery {
  return {
    id: row.id as string,
    webhookId: row.webhookId as string,
    sequence: Number(row.sequence),
    event: row.event as StoredWebhookDelivery['event'],
    blockNumber: row.blockNumber as bigint,
    blockHash: row.blockHash as Hex,
    subject: row.subject as StoredWebhookDelivery['subject'],
    removed: row.removed as boolean,
    payload: row.payload as string | null,
    status: row.status as StoredWebhookDelivery['status'],
    attempts: row.attempts as number,
    lastStatusCode: row.lastStatusCode as number | null,
    lastError: row.lastError as string | null,
    createdAt: Number(row.createdAt),
    nextAttemptAt: ms(row.nextAttemptAt),
    deliveredAt: ms(row.deliveredAt),
  };
}
