import { GraphQLError } from 'graphql';
import { decodeCursor, encodeCursor } from './graphql-cursors.js';

// Beside `GraphqlContribution` rather than in `graphql/`: a feature folder's contributed fields
// page their lists with these, and feature folders sit below `graphql/`.

/** A Relay connection as the schema answers it. */
export interface Connection<T> {
  edges: { node: T; cursor: string }[];
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
}

/** `first` and `after` as a connection field receives them. */
export interface ConnectionArgs {
  first?: number | null;
  after?: string | null;
}

/** How big pages may be (`graphql.maxFirst`, `graphql.defaultFirst`). */
export interface PageLimits {
  maxFirst: number;
  defaultFirst: number;
}

/** Reads one page of a list the way storage pages it: page `p` (1-based) of size `size`. */
export type PageReader<T> = (page: number, size: number) => Promise<T[]>;

/** The window `[start, start + count)` of a list from at most two storage pages. */
export async function readWindow<T>(read: PageReader<T>, start: number, count: number): Promise<T[]> {
  // Pages of `count` items: the window starts on one and ends on the next at worst.
  const page = Math.floor(start / count) + 1;
  const skip = start % count;
  const first = await read(page, count);
  if (skip === 0 || first.length < count) return first.slice(skip);
  return [...first, ...(await read(page + 1, count))].slice(skip, skip + count);
}

/** The page's start and size from `first`/`after`; a `first` outside 1..maxFirst is refused. */
export function pageOf(args: ConnectionArgs, limits: PageLimits): { start: number; size: number } {
  const size = args.first ?? limits.defaultFirst;
  if (!Number.isInteger(size) || size < 1 || size > limits.maxFirst) {
    throw new GraphQLError(`first must be between 1 and ${limits.maxFirst}; got ${size}`, { extensions: { code: 'BAD_USER_INPUT' } });
  }
  return { start: args.after == null ? 0 : decodeCursor(args.after) + 1, size };
}

/**
 * A connection over a list read by pages: one item more than asked tells whether another page
 * follows.
 */
export async function connectionOf<T>(args: ConnectionArgs, limits: PageLimits, read: PageReader<T>): Promise<Connection<T>> {
  const { start, size } = pageOf(args, limits);
  const items = await readWindow(read, start, size + 1);
  return connectionFrom(items, start, size);
}

/** A connection over a list already in memory (a block's transaction hashes, say). */
export function sliceConnection<T>(all: readonly T[], args: ConnectionArgs, limits: PageLimits): Connection<T> {
  const { start, size } = pageOf(args, limits);
  return connectionFrom(all.slice(start, start + size + 1), start, size);
}

function connectionFrom<T>(items: readonly T[], start: number, size: number): Connection<T> {
  const edges = items.slice(0, size).map((node, i) => ({ node, cursor: encodeCursor(start + i) }));
  return { edges, pageInfo: { hasNextPage: items.length > size, endCursor: edges.at(-1)?.cursor ?? null } };
}
