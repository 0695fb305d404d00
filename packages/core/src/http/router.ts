import type { Route } from './route.js';

/** A matched route with its path parameters. */
export interface RouteMatch {
  route: Route;
  params: Record<string, string>;
}

interface ParamRoute {
  route: Route;
  /** A literal segment, or `null` where a parameter stands. */
  segments: (string | null)[];
  names: string[];
}

/**
 * Matches a method and path against the route table. Static paths are one map lookup; paths
 * with parameters are tried among those of the same method and segment count, with the most
 * literal segments first, so `/transaction/pending` wins over `/transaction/:hash`.
 */
export class Router {
  private readonly staticRoutes = new Map<string, Route>();
  /** By method and segment count (see {@link shapeKey}): only routes of a path's shape are tried. */
  private readonly paramRoutes = new Map<string, ParamRoute[]>();

  constructor(routes: readonly Route[]) {
    for (const route of routes) this.add(route);
    for (const list of this.paramRoutes.values()) {
      list.sort((a, b) => literalCount(b) - literalCount(a));
    }
  }

  /** The route for `method` and `path` (no query string), or `null`. */
  match(method: string, path: string): RouteMatch | null {
    const exact = this.staticRoutes.get(`${method} ${path}`);
    if (exact) return { route: exact, params: {} };
    const segments = path.split('/');
    const candidates = this.paramRoutes.get(shapeKey(method, segments.length));
    if (!candidates) return null;
    for (const candidate of candidates) {
      const params = matchSegments(candidate, segments);
      if (params) return { route: candidate.route, params };
    }
    return null;
  }

  private add(route: Route): void {
    const segments = route.path.split('/');
    if (!segments.some((s) => s.startsWith(':'))) {
      const key = `${route.method} ${route.path}`;
      if (this.staticRoutes.has(key)) throw new Error(`Duplicate route ${key}`);
      this.staticRoutes.set(key, route);
      return;
    }
    const key = shapeKey(route.method, segments.length);
    const list = this.paramRoutes.get(key) ?? [];
    list.push({
      route,
      segments: segments.map((s) => (s.startsWith(':') ? null : s)),
      names: segments.filter((s) => s.startsWith(':')).map((s) => s.slice(1)),
    });
    this.paramRoutes.set(key, list);
  }
}

function shapeKey(method: string, segmentCount: number): string {
  return `${method} ${segmentCount}`;
}

function literalCount(route: ParamRoute): number {
  return route.segments.filter((s) => s !== null).length;
}

function matchSegments(candidate: ParamRoute, segments: string[]): Record<string, string> | null {
  for (let i = 0; i < segments.length; i++) {
    const expected = candidate.segments[i];
    if (expected === null ? segments[i] === '' : expected !== segments[i]) return null;
  }
  const params: Record<string, string> = {};
  let name = 0;
  for (let i = 0; i < segments.length; i++) {
    if (candidate.segments[i] === null) params[candidate.names[name++]!] = safeDecode(segments[i]!);
  }
  return params;
}

function safeDecode(segment: string): string {
  if (!segment.includes('%')) return segment;
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}
