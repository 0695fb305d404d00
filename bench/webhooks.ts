/**
 * Webhook delivery: how fast the outbox drains to a local receiver, and how long after a block is
 * indexed its delivery is sent. On memory and on Postgres (a schema of its own), each against a
 * fresh anvil:
 * - throughput: `BENCH_WEBHOOK_HOOKS` webhooks (32) on every block, `BENCH_WEBHOOK_BLOCKS` blocks
 *   (200) indexed with sending off, then a second explorer on the same storage sends the backlog;
 *   deliveries per second from its start until the last is delivered. Baseline in the same run:
 *   the same number of POSTs of the same bodies, as many at once, straight from Node's http to the
 *   same receiver (what the receiver and the loopback allow);
 * - delay: one webhook on every block while anvil mines `BENCH_WEBHOOK_LATENCY_BLOCKS` blocks (100),
 *   one every 50 ms; per block, from the indexer's block event (written to storage) to the
 *   receiver getting the POST; p50 and p99.
 * No target: the figures are reported.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { request as httpRequest, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createExplorer, type Explorer, type Storage } from '@chainlens/core';
import { startAnvil } from '@chainlens/devchain';
import { memoryStorage } from '@chainlens/storage-memory';
import { postgresStorage } from '@chainlens/storage-postgres';
import { envInt } from './lib/env.js';
import { benchDatabase, dropSchema } from './lib/postgres.js';
import { describeMachine, printTable, writeResults } from './lib/report.js';
import { rpc } from './lib/rpc.js';

const WEBHOOKS = { allowPrivateTargets: true, concurrency: 32 };

interface Receiver {
  url: string;
  /** Arrival time (performance.now) per delivery id. */
  arrivals: Map<string, number>;
  /** Arrival time of the first delivery per block number (the latency phase). */
  blocks: Map<string, number>;
  body: string;
  close(): Promise<void>;
}

/** A receiver that answers 200 at once and notes when each delivery arrived. */
async function startReceiver(): Promise<Receiver> {
  const receiver: Receiver = { url: '', arrivals: new Map(), blocks: new Map(), body: '', close: async () => undefined };
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const at = performance.now();
      const id = String(request.headers['chainlens-delivery-id'] ?? `baseline-${receiver.arrivals.size}`);
      receiver.arrivals.set(id, at);
      const raw = Buffer.concat(chunks).toString('utf8');
      if (request.headers['chainlens-delivery-id']) {
        receiver.body ||= raw;
        const block = (JSON.parse(raw) as { data: { blockNumber: string } }).data.blockNumber;
        if (!receiver.blocks.has(block)) receiver.blocks.set(block, at);
      }
      response.writeHead(200, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
  receiver.close = () => new Promise((resolve) => server.close(() => resolve()));
  return receiver;
}

/** `count` POSTs of `body`, `concurrency` at a time, with a fresh connection each (as the sender does); resolves seconds. */
async function baseline(url: string, body: string, count: number, concurrency: number): Promise<number> {
  const started = performance.now();
  let next = 0;
  const worker = async () => {
    while (next < count) {
      next++;
      await new Promise<void>((resolve, reject) => {
        const request = httpRequest(url, { method: 'POST', agent: false, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (response) => {
          response.resume();
          response.on('end', resolve);
        });
        request.on('error', reject);
        request.end(body);
      });
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  return (performance.now() - started) / 1000;
}

async function until(check: () => Promise<boolean>, what: string, timeoutMs = 300_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

const quiet = { logLevel: 'silent' as const, indexer: { pollIntervalMs: 20 }, rateLimits: { enabled: false } };

interface Row {
  storage: string;
  deliveries: number;
  seconds: number;
  perSecond: number;
  baselinePerSecond: number;
  p50Ms: number;
  p99Ms: number;
}

/** Both phases on one storage kind; `storage()` gives a fresh, empty storage, `reopen()` another on the data of the last one. */
async function measure(name: string, storage: () => Storage, reopen: () => Storage): Promise<Row> {
  const hooks = envInt('BENCH_WEBHOOK_HOOKS', 32);
  const blocks = envInt('BENCH_WEBHOOK_BLOCKS', 200);
  const latencyBlocks = envInt('BENCH_WEBHOOK_LATENCY_BLOCKS', 100);
  const anvil = await startAnvil();
  const receiver = await startReceiver();
  let indexer: Explorer | null = null;
  let sender: Explorer | null = null;
  try {
    // Throughput: a backlog written by an explorer that does not send, drained by one that does.
    const store = storage();
    indexer = await createExplorer({ ...quiet, rpcUrl: anvil.rpcUrl, storage: store, webhooks: { ...WEBHOOKS, dispatch: false } });
    for (let i = 0; i < hooks; i++) await indexer.webhooks.create(randomUUID(), { url: receiver.url, events: ['block'] });
    await indexer.start();
    await rpc(anvil.rpcUrl, 'anvil_mine', [`0x${blocks.toString(16)}`]);
    await until(async () => ((await indexer!.storage.getCursor())?.number ?? -1n) >= BigInt(blocks), 'the backlog indexed');
    const deliveries = await indexer.storage.countPendingWebhookDeliveries();
    await indexer.close();
    indexer = null;
    sender = await createExplorer({ ...quiet, rpcUrl: anvil.rpcUrl, storage: reopen(), indexer: { enabled: false }, webhooks: WEBHOOKS });
    const started = performance.now();
    await sender.start();
    await until(async () => receiver.arrivals.size >= deliveries && (await sender!.storage.countPendingWebhookDeliveries()) === 0, 'the backlog sent');
    const seconds = (performance.now() - started) / 1000;
    await sender.close();
    sender = null;
    const baselineSeconds = await baseline(receiver.url, receiver.body, deliveries, WEBHOOKS.concurrency);

    // Delay: a live explorer, one webhook on every block, blocks mined one by one.
    receiver.blocks.clear();
    const live = await createExplorer({ ...quiet, rpcUrl: anvil.rpcUrl, storage: storage(), startBlock: BigInt(blocks + 1), webhooks: WEBHOOKS });
    indexer = live;
    const indexedAt = new Map<string, number>();
    live.hub.on('block', (bundle) => indexedAt.set(bundle.block.number.toString(), performance.now()));
    await live.webhooks.create(randomUUID(), { url: receiver.url, events: ['block'] });
    await live.start();
    for (let i = 0; i < latencyBlocks; i++) {
      await rpc(anvil.rpcUrl, 'anvil_mine', ['0x1']);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await until(async () => receiver.blocks.size >= latencyBlocks, 'every block delivered');
    const delays = [...receiver.blocks].flatMap(([block, at]) => (indexedAt.has(block) ? [at - indexedAt.get(block)!] : [])).sort((a, b) => a - b);
    const pct = (p: number) => delays[Math.min(delays.length - 1, Math.floor((delays.length * p) / 100))]!;
    return { storage: name, deliveries, seconds, perSecond: deliveries / seconds, baselinePerSecond: deliveries / baselineSeconds, p50Ms: pct(50), p99Ms: pct(99) };
  } finally {
    await indexer?.close();
    await sender?.close();
    await receiver.close();
    await anvil.stop();
  }
}

/** Runs both storages, prints and saves the figures. */
export async function runWebhooks(): Promise<boolean> {
  const machine = describeMachine();
  let last = memoryStorage();
  const rows = [await measure('memory', () => (last = memoryStorage()), () => last)];
  const database = await benchDatabase();
  const schemas: string[] = [];
  try {
    const fresh = () => {
      schemas.push(`bench_webhooks_${randomBytes(4).toString('hex')}`);
      return postgresStorage({ connectionString: database.url, schema: schemas.at(-1)! });
    };
    rows.push(await measure('postgres', fresh, () => postgresStorage({ connectionString: database.url, schema: schemas.at(-1)! })));
  } finally {
    for (const schema of schemas) await dropSchema(database.url, schema);
    await database.stop();
  }
  printTable(
    'Webhook delivery to a local receiver',
    ['storage', 'deliveries', 'seconds', 'deliveries/s', 'baseline POSTs/s', 'block→sent p50 ms', 'p99 ms'],
    rows.map((row) => [row.storage, row.deliveries, row.seconds, row.perSecond, row.baselinePerSecond, row.p50Ms, row.p99Ms]),
  );
  await writeResults('webhooks', { machine, rows });
  return true;
}
