import { LRUCache } from 'lru-cache';
import type { ChainClient } from '../chain/chain-client.js';
import { NodeRpcError } from '../chain/node-rpc-error.js';
import { TracingUnavailableError, TransactionNotFoundError } from '../errors/index.js';
import type { Hex, TransactionReader } from '../storage/index.js';
import { labelledTrace, traceAddresses, traceFromCallFrame, traceFromFlatTraces, type CallTraceFrame, type CallTracerFrame, type FlatTrace, type TransactionTraceRecord } from './call-trace.js';
import type { LabelLookup } from './address-labels.js';

/** Options of {@link TraceService}. */
export interface TraceServiceOptions {
  /** Characters of trace records (as JSON) the cache keeps, least recently used out first. */
  cacheBytes: number;
}

/**
 * Call trees of mined transactions, read from the node when first asked (the indexer keeps no
 * traces): `debug_traceTransaction` with the call tracer, else `trace_transaction` where that is
 * what the node has. A computed tree is kept in a bounded cache under the transaction's hash and
 * block hash, so a reorg that moves it to another block reads it afresh; its labels are read per
 * answer (one lookup for the whole tree), so a changed label shows at once.
 */
export class TraceService {
  private readonly cache: LRUCache<string, CallTraceFrame>;

  constructor(
    private readonly storage: TransactionReader,
    private readonly chain: ChainClient,
    private readonly labels: LabelLookup,
    options: TraceServiceOptions,
  ) {
    this.cache = new LRUCache({ maxSize: options.cacheBytes });
  }

  /** The call tree of an indexed transaction; `TransactionNotFoundError` when it is not indexed. */
  async trace(hash: Hex): Promise<TransactionTraceRecord> {
    const tree = await this.tree(hash);
    return labelledTrace(tree, await this.labels.labelsOf(traceAddresses(tree) as Hex[]));
  }

  private async tree(hash: Hex): Promise<CallTraceFrame> {
    const tx = await this.storage.getTransaction(hash);
    if (!tx) throw new TransactionNotFoundError();
    const key = `${tx.hash}:${tx.blockHash}`;
    const cached = this.cache.get(key);
    if (cached) return cached;
    const trace = await this.read(tx.hash);
    const size = JSON.stringify(trace).length;
    // A record larger than the whole cache is answered but not kept.
    if (size <= this.cache.maxSize) this.cache.set(key, trace, { size });
    return trace;
  }

  /** Reads the trace from the node: the debug API first, then the trace API; neither → {@link TracingUnavailableError}. */
  private async read(hash: Hex): Promise<CallTraceFrame> {
    let refusal: NodeRpcError;
    try {
      return traceFromCallFrame(await this.chain.request<CallTracerFrame>('debug_traceTransaction', [hash, { tracer: 'callTracer' }]));
    } catch (error) {
      if (!(error instanceof NodeRpcError)) throw error;
      refusal = error;
    }
    try {
      const trace = traceFromFlatTraces(await this.chain.request<FlatTrace[]>('trace_transaction', [hash]));
      if (trace) return trace;
    } catch (error) {
      if (!(error instanceof NodeRpcError)) throw error;
    }
    throw new TracingUnavailableError(refusal.message);
  }
}
