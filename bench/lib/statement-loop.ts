import pg from 'pg';

/** What a statement loop measured. */
export interface LoopResult {
  reqPerSec: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
}

/**
 * The database's own floor for a route: `connections` clients, each running prepared statements
 * in a loop (a fresh draw of which statement and its values per run, as the route's requests
 * draw theirs: its ascending or descending page, say)
 * for `warmupSeconds` unmeasured then `seconds` measured, with no HTTP in between. Rows are read
 * as `pg` reads them at its cheapest, as arrays (parsed), so the floor pays the driver's work too
 * but none the server could skip: the server reads its list pages as arrays too. Every run
 * must return `expectRows(values)` rows, or the loop fails: a floor returning fewer rows than the
 * page is no floor.
 */
export async function statementLoop(options: {
  url: string;
  schema: string;
  statements: string[];
  draw: () => [statement: number, values: unknown[]];
  connections: number;
  warmupSeconds: number;
  seconds: number;
  expectRows: (rowCount: number) => boolean;
}): Promise<LoopResult> {
  const clients = await Promise.all(
    Array.from({ length: options.connections }, async () => {
      const client = new pg.Client({ connectionString: options.url, options: `-c search_path=${options.schema}` });
      await client.connect();
      return client;
    }),
  );
  const names = options.statements.map((_, i) => `bench_floor_${i}_${Math.random().toString(36).slice(2)}`);
  const latencies: number[] = [];
  try {
    const run = async (until: number, record: boolean, client: pg.Client) => {
      while (performance.now() < until) {
        const started = performance.now();
        const [statement, values] = options.draw();
        const { rowCount } = await client.query({ name: names[statement]!, text: options.statements[statement]!, values, rowMode: 'array' });
        if (!options.expectRows(rowCount ?? 0)) throw new Error(`floor statement returned ${rowCount} rows: ${options.statements[statement]}`);
        if (record) latencies.push(performance.now() - started);
      }
    };
    const warm = performance.now() + options.warmupSeconds * 1000;
    await Promise.all(clients.map((client) => run(warm, false, client)));
    const started = performance.now();
    await Promise.all(clients.map((client) => run(started + options.seconds * 1000, true, client)));
    const elapsed = (performance.now() - started) / 1000;
    latencies.sort((a, b) => a - b);
    const at = (q: number) => Number(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!.toFixed(1));
    return { reqPerSec: latencies.length / elapsed, p50Ms: at(0.5), p99Ms: at(0.99), requests: latencies.length };
  } finally {
    await Promise.all(clients.map((client) => client.end()));
  }
}
