import type { Route } from './route.js';

/** A matched route with its path parameters. */
export interface RouteMatch {
  route: Route;
  params: Record<string, string>;
}

/** A route with parameters, at the node of its last segment. */
interface ParamLeaf {
  route: Route;
  names: string[];
  /** The segment index of each parameter in `names`. */
  positions: number[];
  literals: number;
  /** Position in the route table: the earlier of two equally literal routes wins. */
  order: number;
}

/** One segment position of the parameter routes' tree. */
interface SegmentNode {
  literal: Map<string, SegmentNode>;
  param: SegmentNode | null;
  /** Routes ending here, by method. */
  leaves: Map<string, ParamLeaf>;
}

const newNode = (): SegmentNode => ({ literal: new Map(), param: null, leaves: new Map() });

/** Paths with parameters whose match is kept, at most, and the longest kept: about 1 MiB in all. */
const MAX_KEPT_PATHS = 4_096;
const MAX_KEPT_PATH_LENGTH = 256;

/**
 * Matches a method and path against the route table. Static paths are one map lookup; paths
 * with parameters walk a tree of segments (a literal or a parameter at each position), so a
 * request visits only the routes that share its segments. Of several matches the one with the
 * most literal segments wins, so `/transaction/pending` wins over `/transaction/:hash`.
 *
 * The match of a path with parameters is kept for when the path is asked again (a hot
 * transaction, a popular token), as the response cache keeps its answer: one lookup instead of
 * the walk, which touches a map per segment and costs a busy server more than its own loop
 * shows. Matches are shared, so their params are frozen.
 */
export class Router {
  /** By method, then path: no string is built to look a request up. */
  private readonly staticRoutes = new Map<string, Map<string, RouteMatch>>();
  private readonly root = newNode();
  private order = 0;
  /** Matches of paths with parameters, by method, then path; bounded, started afresh when full. */
  private readonly kept = new Map<string, Map<string, RouteMatch>>();
  private keptPaths = 0;

  constructor(routes: readonly Route[]) {
    for (const route of routes) this.add(route);
  }

  /** The route for `method` and `path` (no query string), or `null`. Treat the match as read-only. */
  match(method: string, path: string): RouteMatch | null {
    const exact = this.staticRoutes.get(method)?.get(path);
    if (exact) return exact;
    const kept = this.kept.get(method)?.get(path);
    if (kept) return kept;
    const segments = path.split('/');
    const leaf = best(this.root, segments, 0, method);
    if (!leaf) return null;
    const params: Record<string, string> = {};
    for (let i = 0; i < leaf.names.length; i++) params[leaf.names[i]!] = safeDecode(segments[leaf.positions[i]!]!);
    const match = { route: leaf.route, params: Object.freeze(params) };
    if (path.length <= MAX_KEPT_PATH_LENGTH) this.keep(method, path, match);
    return match;
  }

  private keep(method: string, path: string, match: RouteMatch): void {
    if (this.keptPaths >= MAX_KEPT_PATHS) {
      // A burst of new paths starts afresh: their matches are only walked again.
      this.kept.clear();
      this.keptPaths = 0;
    }
    let byPath = this.kept.get(method);
    if (!byPath) this.kept.set(method, (byPath = new Map()));
    byPath.set(path, match);
    this.keptPaths++;
  }

  private add(route: Route): void {
    const segments = route.path.split('/');
    const names = segments.filter((s) => s.startsWith(':')).map((s) => s.slice(1));
    const order = this.order++;
    if (names.length === 0) {
      const byPath = this.staticRoutes.get(route.method) ?? new Map<string, RouteMatch>();
      if (byPath.has(route.path)) throw new Error(`Duplicate route ${route.method} ${route.path}`);
      byPath.set(route.path, { route, params: Object.freeze({}) });
      this.staticRoutes.set(route.method, byPath);
      return;
    }
    let node = this.root;
    for (const segment of segments) {
      if (segment.startsWith(':')) node = node.param ??= newNode();
      else {
        let next = node.literal.get(segment);
        if (!next) node.literal.set(segment, (next = newNode()));
        node = next;
      }
    }
    if (node.leaves.has(route.method)) throw new Error(`Duplicate route ${route.method} ${route.path}`);
    const positions = segments.flatMap((s, i) => (s.startsWith(':') ? [i] : []));
    node.leaves.set(route.method, { route, names, positions, literals: segments.length - names.length, order });
  }
}

/** The best leaf for `method` under `node` matching `segments` from `i` on (a parameter takes a non-empty segment). */
function best(node: SegmentNode, segments: string[], i: number, method: string): ParamLeaf | null {
  if (i === segments.length) return node.leaves.get(method) ?? null;
  const segment = segments[i]!;
  const literal = node.literal.get(segment);
  let found = literal ? best(literal, segments, i + 1, method) : null;
  if (node.param && segment !== '') {
    const viaParam = best(node.param, segments, i + 1, method);
    if (viaParam && (!found || viaParam.literals > found.literals || (viaParam.literals === found.literals && viaParam.order < found.order))) found = viaParam;
  }
  return found;
}

function safeDecode(segment: string): string {
  if (!segment.includes('%')) return segment;
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
