import { escapeIdentifier, type Pool } from 'pg';
import { migrations } from './migrations/index.js';
import { inTransaction } from './transaction.js';

/**
 * Brings `schema` up to the latest migration in one transaction. Processes starting at once
 * queue on an advisory lock keyed by the schema, so each migration runs exactly once; later
 * ones find it recorded in `schema_migrations` and skip it. Resolves the recorded versions this
 * code does not know: a newer release migrated the schema (a rolling deploy, or a downgrade).
 */
export async function migrate(pool: Pool, schema: string): Promise<number[]> {
  const quoted = escapeIdentifier(schema);
  return inTransaction(pool, async (client) => {
    // Migrations may outlast the per-statement timeout meant for queries (an index build on a
    // large table), and so may the wait for another process's migration.
    await client.query('SET LOCAL statement_timeout = 0');
    await client.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`chainlens:migrations:${schema}`]);
    // Checked first: CREATE SCHEMA IF NOT EXISTS needs the CREATE privilege even when the
    // schema exists, which a restricted role on `public` lacks.
    const { rowCount } = await client.query('SELECT 1 FROM pg_namespace WHERE nspname = $1', [schema]);
    if (rowCount === 0) await client.query(`CREATE SCHEMA ${quoted}`);
    await client.query(`SET LOCAL search_path TO ${quoted}`);
    await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version    integer PRIMARY KEY,
      name       text NOT NULL,
      applied_at timestamptz NOT NULL DEFAULT now()
    )`);
    const { rows } = await client.query<{ version: number }>('SELECT version FROM schema_migrations');
    const applied = new Set(rows.map((row) => row.version));
    for (const migration of migrations) {
      if (applied.has(migration.version)) continue;
      await client.query(migration.sql);
      await client.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [
        migration.version,
        migration.name,
      ]);
    }
    const known = new Set(migrations.map((migration) => migration.version));
    return [...applied].filter((version) => !known.has(version));
  });
}
