/** One schema change, applied once per schema and recorded in `schema_migrations`. */
export interface Migration {
  /** Applied in ascending order; never reused or changed once released. */
  version: number;
  name: string;
  /** Runs with `search_path` set to the target schema, so it names tables unqualified. */
  sql: string;
}
