import { useEffect, useState } from 'preact/hooks';

/** Where a read stands. */
export type Loading<T> = { state: 'loading' } | { state: 'done'; data: T } | { state: 'failed'; error: unknown };

/**
 * Runs `load` whenever `deps` change and follows its outcome; a newer run supersedes an older one.
 * What it holds for earlier `deps` is never handed out as theirs: until the new run starts (its
 * effect runs after the render that changed them), they are loading too.
 */
export function useLoad<T>(load: () => Promise<T>, deps: readonly unknown[]): Loading<T> {
  const [held, setHeld] = useState<{ deps: readonly unknown[]; loading: Loading<T> }>({ deps, loading: { state: 'loading' } });
  useEffect(() => {
    let current = true;
    setHeld({ deps, loading: { state: 'loading' } });
    load().then(
      (data) => current && setHeld({ deps, loading: { state: 'done', data } }),
      (error: unknown) => current && setHeld({ deps, loading: { state: 'failed', error } }),
    );
    return () => {
      current = false;
    };
  }, deps);
  return held.deps.length === deps.length && held.deps.every((dep, index) => Object.is(dep, deps[index])) ? held.loading : LOADING;
}

const LOADING: Loading<never> = { state: 'loading' };

/** A paged list: the page shown, a way to move, and its rows. */
export interface Paged<T> {
  page: number;
  setPage(page: number): void;
  rows: Loading<T[]>;
  /** A full page came back, so there may be another after it. */
  hasMore: boolean;
}

/**
 * Rows `pageSize` at a time from `loadPage(page, pageSize)`, from page 1. A page showing another
 * record is a new component (keyed by it), so the pages start again.
 */
export function usePaged<T>(loadPage: (page: number, pageSize: number) => Promise<T[]>, pageSize: number): Paged<T> {
  const [page, setPage] = useState(1);
  const rows = useLoad(() => loadPage(page, pageSize), [page]);
  return { page, setPage, rows, hasMore: rows.state === 'done' && rows.data.length === pageSize };
}
