import type { ComponentChildren } from 'preact';

/** A column: its header, and a row's cell. */
export type Column<T> = [header: string, cell: (row: T, index: number) => ComponentChildren];

/**
 * A table of `rows` with a caption and column headers (`scope="col"`), as every list of the page
 * shows its records, scrolling sideways in its own box when wider than the page; `false` entries
 * of `columns` are left out.
 */
export function DataTable<T>({ caption, columns, rows, rowKey, class: className }: { caption: ComponentChildren; columns: (Column<T> | false)[]; rows: T[]; rowKey: (row: T, index: number) => string; class?: string }) {
  const shown = columns.filter((column): column is Column<T> => column !== false);
  // Wide tables scroll inside their box, so a phone-sized page never scrolls sideways.
  return (
    <div class="table-box">
      <table class={className}>
        <caption>{caption}</caption>
        <thead>
          <tr>
            {shown.map(([header]) => (
              <th scope="col" key={header}>
                {header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row, index) => (
            <tr key={rowKey(row, index)}>
              {shown.map(([header, cell]) => (
                <td key={header}>{cell(row, index)}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
