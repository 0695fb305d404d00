import { mkdir, writeFile } from 'node:fs/promises';
import { cpus, loadavg } from 'node:os';

type Cell = string | number;

/** Prints `rows` under `header` as an aligned text table (numbers right-aligned). */
export function printTable(title: string, header: string[], rows: Cell[][]): void {
  const text = (cell: Cell) => (typeof cell === 'number' ? cell.toLocaleString('en-US', { maximumFractionDigits: 2 }) : cell);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => text(row[i] ?? '').length)));
  const line = (cells: Cell[]) =>
    cells.map((cell, i) => (typeof cell === 'number' ? text(cell).padStart(widths[i]!) : text(cell).padEnd(widths[i]!))).join('  ');
  console.log(`\n${title}\n${line(header)}\n${widths.map((w) => '-'.repeat(w)).join('  ')}`);
  for (const row of rows) console.log(line(row));
}

/** `PASS` when `ratio` reaches `target`. */
export const verdict = (ratio: number, target: number): 'PASS' | 'FAIL' => (ratio >= target ? 'PASS' : 'FAIL');

/** A ratio as a percentage with one decimal, e.g. `87.3%`. */
export const percent = (ratio: number): string => `${(ratio * 100).toFixed(1)}%`;

/**
 * The machine a run happens on, taken before the run starts: figures from different machines, or
 * from a busy one (load average near or above the core count), are not comparable.
 */
export function describeMachine() {
  const [load1m = 0] = loadavg();
  return { node: process.version, cpu: cpus()[0]?.model ?? 'unknown', cores: cpus().length, loadAverage1m: Number(load1m.toFixed(2)) };
}

export type Machine = ReturnType<typeof describeMachine>;

/** Writes `bench/results/<name>.json`, so runs can be compared later. */
export async function writeResults(name: string, data: { machine: Machine; [key: string]: unknown }): Promise<void> {
  const dir = new URL('../results/', import.meta.url);
  await mkdir(dir, { recursive: true });
  await writeFile(new URL(`${name}.json`, dir), `${JSON.stringify({ benchmark: name, date: new Date().toISOString(), ...data }, null, 2)}\n`);
  console.log(`\nresults written to bench/results/${name}.json`);
}
