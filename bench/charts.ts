/**
 * Chart latency: `GET /api/v1/stats/charts/transactions` over a year of daily points (365 rows of
 * rollups, memory storage holding a block an hour for a year), through the Fastify adapter at 50
 * connections, against bare Fastify answering the same bytes in the same run. Target: the chart
 * as shipped answers in under 2× the floor's mean latency. The same chart without the response
 * cache (every request reads the rollups and shapes the points) is shown, not judged.
 * Smoke run: `BENCH_CHARTS_DAYS=30 BENCH_DURATION=2 npm run bench -- charts`.
 */
import autocannon from 'autocannon';
import { envInt } from './lib/env.js';
import { describeMachine, printTable, writeResults } from './lib/report.js';
import { withServer } from './lib/server-process.js';

const CONNECTIONS = 50;
const WARMUP_SECONDS = 2;
const TARGET_RATIO = 2;

interface Row {
  name: string;
  reqPerSec: number;
  meanMs: number;
  p99Ms: number;
  role: 'shipped' | 'uncached' | 'floor';
}

/** Runs the benchmark, prints and saves it; resolves whether the target was met. */
export async function runCharts(): Promise<boolean> {
  const days = envInt('BENCH_CHARTS_DAYS', 365);
  const duration = envInt('BENCH_DURATION', 10);
  const blocks = days * 24;
  const serverArgs = [String(blocks), '10', '3600', '1000', '1000'];
  const path = `/api/v1/stats/charts/transactions?resolution=day&from=1700000000&to=${1_700_000_000 + blocks * 3600}`;
  const rows: Row[] = [];
  let body = '';
  await withServer('chainlens-insights.ts', serverArgs, async (server) => {
    const response = await fetch(server.url + path);
    body = await response.text();
    const points = (JSON.parse(body) as { result: { points: unknown[] } }).result.points.length;
    if (response.status !== 200 || points < days) throw new Error(`the chart answered ${response.status} with ${points} points, expected ${days}`);
    rows.push(await measure(`chart of ${points} daily points, as shipped`, server.url + path, duration, 'shipped'));
  });
  await withServer('chainlens-insights.ts', [...serverArgs, '--no-response-cache'], async (server) => {
    rows.push(await measure('the same, response cache off', server.url + path, duration, 'uncached'));
  });
  await withServer('bare.ts', ['fastify', 'application/json; charset=utf-8', body], async (server) => {
    rows.push(await measure(`bare Fastify, the chart's bytes (${Buffer.byteLength(body)})`, `${server.url}/api/v1/transaction/0x00`, duration, 'floor'));
  });
  const floor = rows.find((row) => row.role === 'floor')!;
  const shipped = rows.find((row) => row.role === 'shipped')!;
  const passed = shipped.meanMs < TARGET_RATIO * floor.meanMs;
  printTable(
    `${days} days of blocks (${blocks.toLocaleString('en-US')}, one an hour, ${(blocks * 10).toLocaleString('en-US')} transactions) in memory storage, ${CONNECTIONS} connections, ${duration} s per row`,
    ['route', 'req/s (mean)', 'mean ms', 'p99 ms', 'verdict'],
    rows.map((row) => [row.name, Math.round(row.reqPerSec), row.meanMs, row.p99Ms, row.role === 'shipped' ? (passed ? 'PASS' : 'FAIL') : row.role]),
  );
  console.log(`target: the chart as shipped answers in under ${TARGET_RATIO}× the floor's mean latency`);
  await writeResults('charts', { machine: describeMachine(), settings: { days, blocks, connections: CONNECTIONS, durationSeconds: duration }, rows, verdict: passed ? 'PASS' : 'FAIL' });
  return passed;
}

async function measure(name: string, url: string, duration: number, role: Row['role']): Promise<Row> {
  console.log(`${name}: ${WARMUP_SECONDS} s warm-up + ${duration} s…`);
  const result = await autocannon({ url, connections: CONNECTIONS, duration, warmup: { connections: CONNECTIONS, duration: WARMUP_SECONDS } });
  if (result.errors + result.timeouts + result.non2xx > 0 || !result.requests.total) {
    throw new Error(`${name}: ${result.errors} errors, ${result.timeouts} timeouts, ${result.non2xx} non-2xx`);
  }
  return { name, reqPerSec: result.requests.mean, meanMs: Math.round(result.latency.mean * 100) / 100, p99Ms: result.latency.p99, role };
}
