import type { ComponentChildren } from 'preact';
import type { Paged } from '../load.js';
import { DataTable, type Column } from './data-table.js';
import { Loaded } from './states.js';

/** A paged list: its rows through `children`, then Previous / Next buttons. */
export function PagedList<T>({ paged, what, empty, children }: { paged: Paged<T>; what: string; empty: string; children: (rows: T[]) => ComponentChildren }) {
  const { page, setPage, hasMore } = paged;
  return (
    <div class="paged">
      <Loaded loading={paged.rows} what={what}>
        {(rows) => (rows.length === 0 && page === 1 ? <p class="muted">{empty}</p> : children(rows))}
      </Loaded>
      <Pager page={page} setPage={setPage} hasMore={hasMore} what={what} />
    </div>
  );
}

/** A paged list shown as one table: its caption names the page shown. */
export function PagedTable<T>({ paged, what, empty, caption, rowKey, columns, class: className }: { paged: Paged<T>; what: string; empty: string; caption: string; rowKey: (row: T) => string; columns: (Column<T> | false)[]; class?: string }) {
  return (
    <PagedList paged={paged} what={what} empty={empty}>
      {(rows) => <DataTable caption={`${caption}, page ${paged.page}`} rows={rows} rowKey={rowKey} columns={columns} class={className} />}
    </PagedList>
  );
}

/** Previous / Next buttons and the page shown. */
export function Pager({ page, setPage, hasMore, what }: { page: number; setPage: (page: number) => void; hasMore: boolean; what: string }) {
  return (
    <nav class="pager" aria-label={`Pages of ${what}`}>
      <button type="button" disabled={page <= 1} onClick={() => setPage(page - 1)}>
        Previous
      </button>
      <span aria-live="polite">Page {page}</span>
      <button type="button" disabled={!hasMore} onClick={() => setPage(page + 1)}>
        Next
      </button>
    </nav>
  );
}

/** Pages through rows already in hand (a validator set arrives whole). */
export function pageOf<T>(rows: T[], page: number, pageSize: number): T[] {
  return rows.slice((page - 1) * pageSize, page * pageSize);
}
