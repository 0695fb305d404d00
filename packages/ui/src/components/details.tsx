import type { ComponentChildren } from 'preact';

/** A record's fields as a description list: label, then value. */
export function Details({ rows, label }: { rows: [string, ComponentChildren][]; label: string }) {
  return (
    <dl class="details" aria-label={label}>
      {rows.map(([name, value]) => (
        <div class="row" key={name}>
          <dt>{name}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** Tabs over sections of a page; the chosen one is pressed. */
export function Tabs<K extends string>({ tabs, current, onChange, label }: { tabs: [K, string][]; current: K; onChange: (key: K) => void; label: string }) {
  return (
    <div class="tabs" role="group" aria-label={label}>
      {tabs.map(([key, name]) => (
        <button type="button" key={key} aria-pressed={key === current} onClick={() => onChange(key)}>
          {name}
        </button>
      ))}
    </div>
  );
}
