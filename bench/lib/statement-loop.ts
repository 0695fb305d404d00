import pg from 'pg';

/** What a statement loop measured, with what its meter told of the measured seconds. */
export interface LoopResult<M> {
  reqPerSec: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  meter: M;
}

/**
 * The database's own floor for a route: `workers` loops, each running prepared statements one
 * after another (a fresh draw of which statement and its values per run, as the route's requests
 * draw theirs: its ascending or descending page, say), over `connections` connections (fewer than
 * the workers: they wait for one as a server's requests wait for its pool), for `warmupSeconds`
 * unmeasured then `seconds` measured, with no HTTP in between. Rows are read as `pg` reads them at
 * its cheapest, as arrays (parsed), so the floor pays the driver's work too but none the server
 * could skip: the server reads its list pages as arrays too. Every run must return
 * `expectRows(values)` rows, or the loop fails: a floor returning fewer rows than the page is no
 * floor. `meter` is started with the measured seconds and read as they end, while the
 * connections are still open: the database processes serving them end with them, and a meter
 * read after that would count their work as another process's.
 */
export async function statementLoop<M>(options: {
  url: string;
  schema: string;
  statements: string[];
  draw: () => [statement: number, values: unknown[]];
  workers: number;
  connections: number;
  warmupSeconds: number;
  seconds: number;
  expectRows: (rowCount: number) => boolean;
  meter: () => () => M;
}): Promise<LoopResult<M>> {
  const pool = new pg.Pool({ connectionString: options.url, options: `-c search_path=${options.schema}`, max: options.connections });
  const names = options.statements.map((_, i) => `bench_floor_${i}_${Math.random().toString(36).slice(2)}`);
  const latencies: number[] = [];
  try {
    // Every connection opened before the clock starts.
    await Promise.all(Array.from({ length: options.connections }, () => pool.query('SELECT 1')));
    const run = async (until: number, record: boolean) => {
      while (performance.now() < until) {
        const started = performance.now();
        const [statement, values] = options.draw();
        const { rowCount } = await pool.query({ name: names[statement]!, text: options.statements[statement]!, values, rowMode: 'array' });
        if (!options.expectRows(rowCount ?? 0)) throw new Error(`floor statement returned ${rowCount} rows: ${options.statements[statement]}`);
        if (record) latencies.push(performance.now() - started);
      }
    };
    const loops = (until: number, record: boolean) => Promise.all(Array.from({ length: options.workers }, () => run(until, record)));
    await loops(performance.now() + options.warmupSeconds * 1000, false);
    const stopMeter = options.meter();
    const started = performance.now();
    await loops(started + options.seconds * 1000, true);
    const elapsed = (performance.now() - started) / 1000;
    const meter = stopMeter();
    latencies.sort((a, b) => a - b);
    const at = (q: number) => Number(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!.toFixed(1));
    return { reqPerSec: latencies.length / elapsed, p50Ms: at(0.5), p99Ms: at(0.99), requests: latencies.length, meter };
  } finally {
    await pool.end();
  }
}
