/**
 * The framework-neutral request and response the kernel speaks. Adapters translate their
 * framework's objects into these and back; nothing else crosses the boundary.
 */

/** An incoming HTTP request, as an adapter hands it to the kernel. */
export interface HttpRequest {
  /** Upper-case method, e.g. `GET`. */
  method: string;
  /** Path and query relative to where ChainLens is mounted, e.g. `/api/v1/health?x=1`. */
  url: string;
  /** Header names in lower case, as Node gives them. */
  headers: Record<string, string | string[] | undefined>;
  /** The client's address, as the adapter determined it. */
  ip: string;
  /**
   * The raw body, when the adapter did not parse it: the kernel enforces the size limit and
   * parses JSON itself.
   */
  rawBody?: Uint8Array | string;
  /** A body the host framework already parsed (used when `rawBody` is absent). */
  body?: unknown;
}

/** The kernel's answer: an adapter writes it out as it is. */
export interface HttpResponse {
  status: number;
  /** Shared between responses: copy before changing. */
  headers: Readonly<Record<string, string>>;
  /**
   * Serialized body (JSON for every API route): text as a route computes it, bytes when the
   * response cache serves a large one (encoded once when kept, not again for every request it
   * answers; small ones stay text, which Node writes with the head in one chunk).
   */
  body: string | Uint8Array;
  /**
   * A body streamed in chunks instead of `body` (then empty), for answers too long to hold (a CSV
   * export): an adapter writes it as it comes, with backpressure, and stops reading it (`return`
   * on its iterator) when the client goes away. Iterated once.
   */
  stream?: AsyncIterable<Uint8Array>;
}

/** A response whose body is text, as routes and error formats compute it. */
export type TextResponse = HttpResponse & { body: string };
