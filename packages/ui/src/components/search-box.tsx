import { useEffect, useRef, useState } from 'preact/hooks';
import { v1 } from '../api.js';
import { describe, hrefOf, LABELS } from '../pages/search.js';
import type { SearchMatch } from '../records.js';
import { href } from '../router.js';

/** How long typing pauses before suggestions are asked for. */
const DEBOUNCE_MS = 250;
/** Suggestions shown at most. */
const SUGGESTIONS = 8;

/**
 * The one search box: an address, a transaction hash, a block number or a token name or symbol.
 * Suggests matches as one types (`GET /api/v1/search`), as an ARIA combobox: arrow keys move
 * through them, Enter opens the one chosen (or searches what was typed), Escape closes them.
 */
export function SearchBox({ initial }: { initial: string }) {
  const [q, setQ] = useState(initial);
  const [matches, setMatches] = useState<SearchMatch[]>([]);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const asked = useRef(0);
  useEffect(() => setQ(initial), [initial]);
  useEffect(() => {
    const text = q.trim();
    const round = ++asked.current;
    if (!text || text === initial) {
      setMatches([]);
      return;
    }
    const timer = setTimeout(() => {
      v1<SearchMatch[]>('search', { q: text, limit: SUGGESTIONS }).then(
        (found) => {
          if (round !== asked.current) return;
          setMatches(found);
          setActive(-1);
        },
        // A query the server refuses (or an unreachable one) suggests nothing; Enter still searches and says why.
        () => round === asked.current && setMatches([]),
      );
    }, DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [q]);

  const shown = open && matches.length > 0;
  const go = (fragment: string) => {
    setOpen(false);
    setMatches([]);
    location.hash = fragment;
  };
  return (
    <form
      class="search"
      role="search"
      onSubmit={(event) => {
        event.preventDefault();
        const chosen = shown && active >= 0 ? matches[active] : undefined;
        if (chosen) return go(hrefOf(chosen));
        const text = q.trim();
        if (text) go(href.search(text));
      }}
    >
      <label for="search-input">Search the chain</label>
      <div class="combo">
        <input
          id="search-input"
          type="text"
          name="q"
          role="combobox"
          aria-autocomplete="list"
          aria-expanded={shown}
          aria-controls="search-suggestions"
          aria-activedescendant={shown && active >= 0 ? `suggestion-${active}` : undefined}
          value={q}
          maxLength={200}
          placeholder="Address, transaction hash, block number or token"
          autoComplete="off"
          spellcheck={false}
          onInput={(event) => {
            setQ(event.currentTarget.value);
            setOpen(true);
          }}
          onKeyDown={(event) => {
            if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
              if (matches.length === 0) return;
              event.preventDefault();
              setOpen(true);
              setActive((current) => (event.key === 'ArrowDown' ? (current + 1) % matches.length : current <= 0 ? matches.length - 1 : current - 1));
            } else if (event.key === 'Escape' && shown) {
              event.preventDefault();
              setOpen(false);
              setActive(-1);
            }
          }}
          onBlur={() => setOpen(false)}
        />
        <ul id="search-suggestions" role="listbox" aria-label="Search suggestions" hidden={!shown}>
          {matches.map((match, index) => (
            <li
              key={index}
              id={`suggestion-${index}`}
              role="option"
              aria-selected={index === active}
              // Chosen on mousedown: a click's blur would close the list first.
              onMouseDown={(event) => {
                event.preventDefault();
                go(hrefOf(match));
              }}
            >
              <span class="badge">{LABELS[match.type]}</span> {describe(match)}
            </li>
          ))}
        </ul>
      </div>
      <button type="submit">Search</button>
    </form>
  );
}
