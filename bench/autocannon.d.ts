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
    /** Request templates; `setupRequest` may rewrite each request before it is sent. */
    requests?: { setupRequest?: (request: { path: string }) => { path: string } }[];
  }

  /** Per-second samples (requests) or per-request values in ms (latency). */
  interface Stats {
    mean: number;
    p50: number;
    p99: number;
    total?: number;
  }

  interface Result {
    requests: Stats;
    latency: Stats;
    errors: number;
    timeouts: number;
    non2xx: number;
    mismatches: number;
    statusCodeStats: Record<string, { count: number }>;
  }

  function autocannon(options: Options): Promise<Result>;
  export default autocannon;
}
