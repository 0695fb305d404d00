import type { Pool } from 'pg';

/** Where a role's statements run: what `PostgresStorage` shares with the role implementations it delegates to. */
export interface RolePools {
  /** Writes, and reads that must see this storage's own writes. */
  primary: Pool;
  /** Where a chain read goes: the read replicas in turn, else the primary. */
  reads(): Pool;
  /** The storage's schema, which names its advisory locks. */
  schema: string;
}
