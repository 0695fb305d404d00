/**
 * CSV export memory: `GET /api/v1/export/transactions.csv` of an address with 100,000
 * transactions (memory storage, Fastify). The client reads the export and, with its first chunk
 * and after each megabyte, asks the server for its live memory (heap and external bytes after a full
 * collection; the export waits meanwhile, as backpressure holds it); the server's peak resident
 * memory is sampled from /proc every 10 ms as well. The export is streamed from keyset pages, so
 * what it holds must not grow with it: target, the live memory it adds stays under 8 MB over the
 * whole export, however long (a tenth of the rows is shown beside it, holding about as much).
 * Smoke run: `BENCH_CSV_ROWS=5000 npm run bench -- csv`.
 */
import { envInt } from './lib/env.js';
import { describeMachine, printTable, writeResults } from './lib/report.js';
import { withServer } from './lib/server-process.js';
import { addressAt } from './lib/synthetic-chain.js';
import { residentMiB } from './lib/cpu-meter.js';

const TARGET_HELD_MB = 8;
const TX_PER_BLOCK = 100;
/** Bytes read between two samples of the server's live memory. */
const SAMPLE_EVERY = 1024 * 1024;

interface Row {
  rows: number;
  bytes: number;
  seconds: number;
  /** Most live memory the export added, in MB. */
  heldMb: number;
  /** Peak resident memory growth meanwhile (garbage included), in MB. */
  rssGrowthMb: number;
}

/** Runs the benchmark, prints and saves it; resolves whether the target was met. */
export async function runCsvExport(): Promise<boolean> {
  const total = envInt('BENCH_CSV_ROWS', 100_000);
  const blocks = Math.ceil(total / TX_PER_BLOCK);
  const results: Row[] = [];
  // The heavy address sends every transaction (heavyEvery 1): its history is the whole chain.
  await withServer(
    'chainlens-insights.ts',
    [String(blocks), String(TX_PER_BLOCK), '2', '1', String(total)],
    async (server) => {
      for (const rows of [Math.max(1, Math.floor(total / 10)), total]) results.push(await exportOnce(server.url, server.pid, server.credentials.jwt!, rows));
    },
    ['--expose-gc'],
  );
  const full = results.at(-1)!;
  const passed = full.heldMb < TARGET_HELD_MB;
  printTable(
    `CSV export of an address's transactions (memory storage, Fastify)`,
    ['rows', 'CSV MB', 'seconds', 'live memory held MB', 'peak RSS growth MB', 'verdict'],
    results.map((row) => [row.rows, Math.round(row.bytes / 1e4) / 100, row.seconds, row.heldMb, row.rssGrowthMb, row === full ? (passed ? 'PASS' : 'FAIL') : 'shown']),
  );
  console.log(`target: the ${total}-row export holds under ${TARGET_HELD_MB} MB of live memory at every sample (one per MB read)`);
  await writeResults('csv-export', { machine: describeMachine(), settings: { rows: total, txPerBlock: TX_PER_BLOCK, sampleEveryBytes: SAMPLE_EVERY }, results, verdict: passed ? 'PASS' : 'FAIL' });
  return passed;
}

/** One export of the first `rows` rows (the block range that holds them), with the server's memory meanwhile. */
async function exportOnce(url: string, pid: number, headers: Record<string, string>, rows: number): Promise<Row> {
  const endBlock = Math.ceil(rows / TX_PER_BLOCK) - 1;
  const baseline = await liveMemory(url);
  const rssBefore = residentMiB(pid);
  let rssPeak = rssBefore;
  const sampler = setInterval(() => {
    rssPeak = Math.max(rssPeak, residentMiB(pid));
  }, 10);
  const started = performance.now();
  let bytes = 0;
  let lines = 0;
  let held = Number.NEGATIVE_INFINITY;
  // The first sample comes with the first chunk, then one per SAMPLE_EVERY bytes.
  let nextSample = 0;
  try {
    const response = await fetch(`${url}/api/v1/export/transactions.csv?address=${addressAt(0)}&endblock=${endBlock}`, { headers });
    if (response.status !== 200 || !response.body) throw new Error(`the export answered ${response.status}: ${await response.text()}`);
    for await (const chunk of response.body) {
      bytes += chunk.byteLength;
      for (const byte of chunk) if (byte === 10) lines++;
      if (bytes >= nextSample) {
        nextSample += SAMPLE_EVERY;
        held = Math.max(held, (await liveMemory(url)) - baseline);
      }
    }
  } finally {
    clearInterval(sampler);
  }
  if (lines !== rows + 1) throw new Error(`the export held ${lines - 1} rows, expected ${rows}`);
  const mb = (value: number) => Math.round(value * 10) / 10;
  return { rows, bytes, seconds: Math.round((performance.now() - started) / 10) / 100, heldMb: mb(held / 1024 / 1024), rssGrowthMb: mb(Math.max(rssPeak, residentMiB(pid)) - rssBefore) };
}

/** The server's live memory (heap and external bytes after a full collection). */
async function liveMemory(url: string): Promise<number> {
  return ((await (await fetch(`${url}/bench/live-memory`)).json()) as { bytes: number }).bytes;
}

