import type { Migration } from './migration.js';

/**
 * Token search by name or symbol prefix. The keys are the texts lowercased by the writer (as
 * JavaScript lowercases them, so both backends match alike whatever the database's locale), kept
 * as their UTF-8 bytes: a prefix's range is then [prefix, prefix with its last byte raised by
 * one), which always exists (UTF-8 has no 0xFF byte) and which a btree answers with the prefix as
 * a bound parameter, so a prepared statement's generic plan uses the index too (LIKE 'x%' only
 * does for a constant pattern). Tokens read before this migration get keys from names and
 * symbols in ASCII, where lowercasing is A-Z alone; the others are marked unread, so the
 * metadata indexer reads them again and their keys are written as the JavaScript lowercases.
 */
export const tokenSearchMigration: Migration = {
  version: 15,
  name: 'token-search',
  sql: /* sql */ `
ALTER TABLE tokens ADD COLUMN name_key bytea, ADD COLUMN symbol_key bytea;
UPDATE tokens SET
  name_key = convert_to(translate(name, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz'), 'UTF8'),
  symbol_key = convert_to(translate(symbol, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', 'abcdefghijklmnopqrstuvwxyz'), 'UTF8')
WHERE metadata_read AND coalesce(name, '') || coalesce(symbol, '') ~ '^[\\x01-\\x7f]*$';
UPDATE tokens SET metadata_read = false WHERE metadata_read AND name_key IS NULL AND symbol_key IS NULL AND (name IS NOT NULL OR symbol IS NOT NULL);
CREATE INDEX tokens_by_name_key ON tokens (name_key);
CREATE INDEX tokens_by_symbol_key ON tokens (symbol_key);
`,
};
