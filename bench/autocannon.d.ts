/** The part of autocannon 8's API the benchmarks use (the package ships no types). */
declare module 'autocannon' {
  interface Options {
    url: string;
    /** Sent with every request. */
    headers?: Record<string, string>;
    connections?: number;
    /** Seconds. */
    duration?: number;
    /** A run before the measured one whose results are kept apart (`result.warmup`). */
    warmup?: { connections?: number; duration?: number };
    method?: 'GET' | 'POST';
    body?: string;
    /** Request templates, sent in turn on each connection; `setupRequest` may rewrite each request before it is sent. */
    requests?: Request[];
    /** Requests per second across all connections (an open-loop rate); default as fast as answered. */
    overallRate?: number;
  }

  /** Per-second samples (requests) or per-request values in ms (latency). */
  interface Stats {
    mean: number;
    p50: number;
    p99: number;
    total?: number;
  }

  export interface Result {
    requests: Stats;
    latency: Stats;
    errors: number;
    timeouts: number;
    non2xx: number;
    mismatches: number;
    statusCodeStats: Record<string, { count: number }>;
  }

  export interface Request {
    method?: 'GET' | 'POST';
    path?: string;
    headers?: Record<string, string>;
    body?: string;
    setupRequest?: (request: { path: string }) => { path: string };
  }

  function autocannon(options: Options): Promise<Result>;
  export default autocannon;
}
