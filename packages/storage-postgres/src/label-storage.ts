import type { Hex, LabelStorage, PrivateLabelCap, StoredAddressLabel, StoredPrivateLabel } from '@chainlens/core';
import { isUuid } from './account-queries.js';
import { toBytea } from './codec.js';
import { type LabelStatements, prefixPattern } from './insight-queries.js';
import type { RolePools } from './role-pools.js';
import { inTransaction } from './transaction.js';

/** Public and private address labels, on the primary (the labels version must read its own writes). */
export class PostgresLabelStorage implements LabelStorage {
  constructor(
    private readonly pools: RolePools,
    private readonly statements: LabelStatements,
  ) {}

  async putAddressLabel({ address, label, category, note, updatedAt }: StoredAddressLabel): Promise<void> {
    await this.pools.primary.query({ ...this.statements.putLabel, values: [toBytea(address), label, label.toLowerCase(), category, note, updatedAt] });
  }

  async deleteAddressLabel(address: Hex): Promise<boolean> {
    const { rows } = await this.pools.primary.query<{ deleted: bigint }>({ ...this.statements.deleteLabel, values: [toBytea(address)] });
    return rows[0]!.deleted > 0n;
  }

  async getAddressLabels(addresses: Hex[]): Promise<StoredAddressLabel[]> {
    if (addresses.length === 0) return [];
    const { rows } = await this.pools.primary.query<StoredAddressLabel>({ ...this.statements.labels, values: [addresses.map(toBytea)] });
    return rows;
  }

  async searchAddressLabels(prefix: string, limit: number): Promise<StoredAddressLabel[]> {
    // Postgres text cannot hold NUL, so no label starts with one.
    if (limit < 1 || prefix.includes('\u0000')) return [];
    const { rows } = await this.pools.primary.query<StoredAddressLabel>({ text: this.statements.searchLabels.text, values: [prefixPattern(prefix.toLowerCase()), limit] });
    return rows;
  }

  async getLabelsVersion(): Promise<number> {
    const { rows } = await this.pools.primary.query<{ version: bigint }>(this.statements.labelsVersion);
    return Number(rows[0]!.version);
  }

  async putPrivateLabel({ userId, address, label, note, createdAt, updatedAt }: StoredPrivateLabel, cap?: PrivateLabelCap): Promise<boolean> {
    const values = [userId, toBytea(address), label, note, createdAt, updatedAt];
    if (!cap) {
      await this.pools.primary.query({ ...this.statements.putPrivate, values });
      return true;
    }
    // One user's capped puts take turns: each counts after the one before it committed.
    return inTransaction(this.pools.primary, async (client) => {
      await client.query({ ...this.statements.lockPrivateLabels, values: [`chainlens:private-labels:${this.pools.schema}:${userId}`] });
      const { rows } = await client.query({ ...this.statements.putPrivateCapped, values: [...values, cap.maxEntries] });
      return rows.length === 1;
    });
  }

  async deletePrivateLabel(userId: string, address: Hex): Promise<boolean> {
    if (!isUuid(userId)) return false;
    const { rows } = await this.pools.primary.query({ ...this.statements.deletePrivate, values: [userId, toBytea(address)] });
    return rows.length === 1;
  }

  async listPrivateLabels(userId: string): Promise<StoredPrivateLabel[]> {
    if (!isUuid(userId)) return [];
    const { rows } = await this.pools.primary.query<StoredPrivateLabel>({ ...this.statements.listPrivate, values: [userId] });
    return rows;
  }
}
