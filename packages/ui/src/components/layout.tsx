import type { ComponentChildren } from 'preact';
import { useLayoutEffect, useRef, useState } from 'preact/hooks';
import { apiUrl } from '../api.js';
import { useChannel, useLiveStatus } from '../live.js';
import type { BlockEvent } from '../records.js';
import { href, type Route } from '../router.js';
import { SearchBox } from './search-box.js';
import { ThemeSwitch } from './theme-switch.js';

const NAV: [Route['name'], string, string][] = [
  ['home', 'Home', href.home()],
  ['blocks', 'Blocks', href.blocks()],
  ['transactions', 'Transactions', href.transactions()],
  ['validators', 'Validators', href.validators()],
  ['charts', 'Charts', href.charts()],
];

/** Header (name, navigation, the search box), the page, and a footer linking the API reference. */
export function Layout({ route, children }: { route: Route; children: ComponentChildren }) {
  return (
    <>
      <a class="skip" href="#main" onClick={(event) => { event.preventDefault(); document.getElementById('main')?.focus(); }}>
        Skip to content
      </a>
      <header class="top">
        <div class="bar">
          <a class="brand" href={href.home()}>
            ChainLens
          </a>
          <nav aria-label="Main">
            {NAV.map(([name, label, link]) => (
              <a key={name} href={link} aria-current={route.name === name ? 'page' : undefined}>
                {label}
              </a>
            ))}
          </nav>
          <LiveBadge />
          <ThemeSwitch />
        </div>
        <SearchBox initial={route.name === 'search' ? route.q : ''} />
      </header>
      <main id="main" tabIndex={-1}>
        {children}
      </main>
      <footer>
        ChainLens explorer · <a href={apiUrl('docs').href}>API reference</a>
      </footer>
    </>
  );
}

/** Whether new blocks arrive, and the newest one heard: on every page, so the page says how current it is. */
function LiveBadge() {
  const status = useLiveStatus();
  const [newest, setNewest] = useState<string | null>(null);
  useChannel<BlockEvent>('blocks', ({ data, removed }) => {
    if (!removed) setNewest(data.blockNumber);
  });
  return (
    <span class={`live ${status}`} title="New blocks arrive here as they are indexed">
      {status === 'live' ? 'Live' : status === 'connecting' ? 'Connecting…' : 'Reconnecting…'}
      {newest !== null && (
        <>
          {' · '}
          <a href={href.block(newest)} aria-label={`Newest block ${newest}`}>
            #{newest}
          </a>
        </>
      )}
    </span>
  );
}

/** Page titles shown since the page loaded: the first one leaves the focus at the top. */
let titlesShown = 0;

/**
 * A page's title as its first heading; focused when the page changes (not on the first page), so
 * keyboard and screen-reader users start there.
 */
export function PageTitle({ children, sub }: { children: ComponentChildren; sub?: ComponentChildren }) {
  const heading = useRef<HTMLHeadingElement>(null);
  // A layout effect, so the focus moves in the same task the new page is put in place: nothing
  // (a reader, a test) can see the new heading before it holds the focus.
  useLayoutEffect(() => {
    if (titlesShown++ > 0) heading.current?.focus({ preventScroll: true });
    document.title = `${heading.current?.textContent ?? 'ChainLens'} · ChainLens explorer`;
  }, []);
  return (
    <div class="title">
      <h1 ref={heading} tabIndex={-1}>
        {children}
      </h1>
      {sub && <p class="sub">{sub}</p>}
    </div>
  );
}
