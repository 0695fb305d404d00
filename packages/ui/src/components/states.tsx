import type { ComponentChildren } from 'preact';
import { ApiError } from '../api.js';
import type { Loading } from '../load.js';
import { href } from '../router.js';

/** Shows `children(data)` once loaded; a spinner line before, and what went wrong after a failure. */
export function Loaded<T>({ loading, children, what }: { loading: Loading<T>; children: (data: T) => ComponentChildren; what: string }) {
  if (loading.state === 'loading') return <p class="loading" role="status">Loading {what}…</p>;
  if (loading.state === 'failed') return <Failure error={loading.error} what={what} />;
  return <>{children(loading.data)}</>;
}

/** A failed read: not found, refused input, or the server's own message. */
export function Failure({ error, what }: { error: unknown; what: string }) {
  if (error instanceof ApiError && error.notFound) return <NotFound what={what} detail={error.message} />;
  if (error instanceof ApiError && error.badRequest) return <BadQuery what={what} detail={error.message} />;
  return (
    <div class="notice error" role="alert">
      <h2>Could not load {what}</h2>
      <p>{error instanceof Error ? error.message : String(error)}</p>
    </div>
  );
}

/** "Not found": the record or page does not exist (yet). */
export function NotFound({ what, detail }: { what: string; detail?: string }) {
  return (
    <div class="notice" role="alert" data-testid="not-found">
      <h2>Not found</h2>
      <p>
        There is no {what} here{detail ? ` (${detail.replace(/^Error! /, '')})` : ''}. It may not be indexed yet, or it may not exist on this chain.
      </p>
      <p>
        <a href={href.home()}>Back to the home page</a>
      </p>
    </div>
  );
}

/** A query the explorer cannot read as what it was asked for. */
export function BadQuery({ what, detail }: { what: string; detail?: string }) {
  return (
    <div class="notice warning" role="alert" data-testid="bad-query">
      <h2>Bad query</h2>
      <p>
        That is not a valid {what}
        {detail ? `: ${detail.replace(/^Error! /, '')}` : ''}. Search by a block number, a transaction hash (0x and 64 hex digits), an address (0x and 40 hex
        digits) or a token name or symbol.
      </p>
    </div>
  );
}
