/**
 * `npm run bench [-- http|ingest|query|ws|soak|charts|csv|reorgs|webhooks ...]`: runs the named benchmarks (default all, in this order).
 * Exits non-zero when a run fails or misses its target.
 */
import { runCharts } from './charts.js';
import { runCsvExport } from './csv-export.js';
import { runHttp } from './http.js';
import { runIngest } from './ingest.js';
import { runQuery } from './query.js';
import { runReorgs } from './reorgs.js';
import { runSoak } from './soak.js';
import { runWebhooks } from './webhooks.js';
import { runWs } from './ws.js';

const BENCHMARKS: Record<string, () => Promise<boolean>> = { http: runHttp, ingest: runIngest, query: runQuery, ws: runWs, soak: runSoak, charts: runCharts, csv: runCsvExport, reorgs: runReorgs, webhooks: runWebhooks };

const requested = process.argv.slice(2);
const unknown = requested.filter((name) => !(name in BENCHMARKS));
if (unknown.length > 0) throw new Error(`unknown benchmark ${unknown.join(', ')}; choose from ${Object.keys(BENCHMARKS).join(', ')}`);

let allPassed = true;
for (const name of requested.length > 0 ? requested : Object.keys(BENCHMARKS)) {
  console.log(`\n=== bench: ${name} ===`);
  if (!(await BENCHMARKS[name]!())) allPassed = false;
}
if (!allPassed) {
  console.log('\nSome targets were missed (FAIL above).');
  process.exitCode = 1;
}
