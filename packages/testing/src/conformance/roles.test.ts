import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { conformanceByRole } from './roles.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const ROLES = resolve(HERE, '../../../core/src/storage/roles');
/** Files of this folder that hold no slice of the suite. */
const NOT_SLICES = new Set(['index.ts', 'harness.ts', 'account-fixtures.ts', 'roles.ts']);

/** Each role interface of core's storage, with the methods it declares (not its properties). */
function storageRoles(): Map<string, string[]> {
  return new Map(
    readdirSync(ROLES).map((file) => {
      const source = readFileSync(join(ROLES, file), 'utf8');
      return [source.match(/^export interface (\w+)/m)![1]!, [...source.matchAll(/^ {2}(\w+)\(/gm)].map(([, method]) => method!)];
    }),
  );
}

const read = (file: string) => readFileSync(join(HERE, file), 'utf8');

describe('the conformance suite sliced by storage role', () => {
  const roles = storageRoles();

  it('lists every role of Storage, and only those', () => {
    expect(Object.keys(conformanceByRole).sort()).toEqual([...roles.keys()].sort());
  });

  it("calls every method of a role in that role's slices (or the harness checks they share)", () => {
    const harness = read('harness.ts');
    const untested = [...roles].flatMap(([role, methods]) => {
      const sources = [...conformanceByRole[role as keyof typeof conformanceByRole], 'harness.ts'].map((file) => (file === 'harness.ts' ? harness : read(file)));
      return methods.filter((method) => !sources.some((source) => source.includes(`.${method}(`))).map((method) => `${role}.${method}`);
    });
    expect(untested).toEqual([]);
  });

  it('places every slice of the suite under some role, each registered by the suite', () => {
    const slices = readdirSync(HERE).filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts') && !NOT_SLICES.has(file));
    const listed = new Set<string>(Object.values(conformanceByRole).flat());
    expect(slices.filter((file) => !listed.has(file))).toEqual([]);
    const registered = read('index.ts');
    expect([...listed].filter((file) => !registered.includes(`from './${file.replace(/\.ts$/, '.js')}'`))).toEqual([]);
  });
});
