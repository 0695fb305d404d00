import { useEffect } from 'preact/hooks';
import { ApiError, v1 } from '../api.js';
import { PageTitle } from '../components/layout.js';
import { BadQuery, Failure, Loaded } from '../components/states.js';
import { shorten } from '../format.js';
import { useLoad } from '../load.js';
import type { SearchMatch } from '../records.js';
import { href, replaceRoute, shapes } from '../router.js';

/**
 * What a search found (`GET /api/v1/search`): the page of the one match that is exactly what was
 * typed (a number, hash or address, or a token's symbol or name), else every match to choose from.
 */
export function SearchPage({ q }: { q: string }) {
  const matches = useLoad(() => (q ? v1<SearchMatch[]>('search', { q, limit: 10 }) : Promise.resolve([])), [q]);
  const target = matches.state === 'done' ? destination(q, matches.data) : null;
  useEffect(() => {
    if (target) replaceRoute(target);
  }, [target]);

  if (!q) {
    return (
      <>
        <PageTitle>Search</PageTitle>
        <p>Type an address, a transaction hash, a block number or a token's name or symbol in the search box.</p>
      </>
    );
  }
  if (matches.state === 'failed' && matches.error instanceof ApiError && matches.error.notFound) return <SearchUnavailable q={q} />;
  return (
    <>
      <PageTitle sub={`for “${q}”`}>Search results</PageTitle>
      {matches.state === 'failed' ? (
        matches.error instanceof ApiError && matches.error.badRequest ? <BadQuery what="search" detail={matches.error.message} /> : <Failure error={matches.error} what="search results" />
      ) : (
        <Loaded loading={matches} what="search results">
          {(found) =>
            target ? (
              <p role="status">Opening {target}…</p>
            ) : found.length === 0 ? (
              <div class="notice" role="alert" data-testid="no-match">
                <h2>Nothing found</h2>
                <p>
                  No indexed block, transaction, address or token matches “{q}”. Search by a block number, a transaction hash, an address, or at least two letters of a
                  token's name or symbol.
                </p>
              </div>
            ) : (
              <MatchList matches={found} />
            )
          }
        </Loaded>
      )}
    </>
  );
}

function MatchList({ matches }: { matches: SearchMatch[] }) {
  return (
    <>
      <p>{matches.length} matches, best first:</p>
      <ul class="matches" aria-label="Search matches">
        {matches.map((match, index) => (
          <li key={index}>
            <span class="badge">{LABELS[match.type]}</span> <a href={hrefOf(match)}>{describe(match)}</a>
          </li>
        ))}
      </ul>
    </>
  );
}

/** What kind of record a match is, as its badge says. */
export const LABELS: Record<SearchMatch['type'], string> = { block: 'Block', transaction: 'Transaction', contract: 'Contract', address: 'Address', token: 'Token' };

/** A match in words: its record's number, hash, name or label and address. */
export function describe(match: SearchMatch): string {
  switch (match.type) {
    case 'block':
      return `Block #${match.blockNumber} (${shorten(match.hash)})`;
    case 'transaction':
      return `${match.hash} in block #${match.blockNumber}`;
    case 'contract':
      return `${match.label ?? match.name ?? 'Contract'} ${match.address}`;
    case 'address':
      return match.label ? `${match.label} ${match.address}` : match.address;
    case 'token':
      return `${match.name ?? 'Token'}${match.symbol ? ` (${match.symbol})` : ''}, ${match.standard}, ${match.address}`;
  }
}

/** The page of a match's record. */
export function hrefOf(match: SearchMatch): string {
  switch (match.type) {
    case 'block':
      return href.block(match.blockNumber);
    case 'transaction':
      return href.transaction(match.hash);
    case 'contract':
    case 'address':
      return href.address(match.address);
    case 'token':
      return href.token(match.address);
  }
}

/** Whether `match` is exactly what was typed, not a match by prefix. */
function isExact(q: string, match: SearchMatch): boolean {
  const text = q.toLowerCase();
  switch (match.type) {
    case 'block':
      return match.blockNumber === q || match.hash.toLowerCase() === text;
    case 'transaction':
      return match.hash.toLowerCase() === text;
    case 'contract':
    case 'address':
      return match.address.toLowerCase() === text;
    case 'token':
      return match.address.toLowerCase() === text || match.symbol?.toLowerCase() === text || match.name?.toLowerCase() === text;
  }
}

/** The page to open at once: that of the only match, or of the only exact one; `null` to list them. */
function destination(q: string, matches: SearchMatch[]): string | null {
  if (matches.length === 1) return hrefOf(matches[0]!);
  const exact = matches.filter((match) => isExact(q, match));
  return exact.length === 1 ? hrefOf(exact[0]!) : null;
}

/** The server offers no search (an older ChainLens): say so, and open what the query's shape names. */
function SearchUnavailable({ q }: { q: string }) {
  const guesses: [string, string][] = [];
  if (shapes.blockNumber(q)) guesses.push([href.block(q), `Block #${q}`]);
  if (shapes.hash(q)) guesses.push([href.transaction(q.toLowerCase()), `Transaction ${q}`]);
  if (shapes.address(q)) guesses.push([href.address(q.toLowerCase()), `Address ${q}`], [href.token(q.toLowerCase()), `Token ${q}`]);
  return (
    <>
      <PageTitle sub={`for “${q}”`}>Search</PageTitle>
      <div class="notice warning" role="alert" data-testid="search-unavailable">
        <h2>Search is not available</h2>
        <p>This server does not offer search (its <code>/api/v1/search</code> answered “Endpoint not found”).</p>
        {guesses.length > 0 ? (
          <ul>
            {guesses.map(([link, label]) => (
              <li key={link}>
                <a href={link}>Open {label}</a>
              </li>
            ))}
          </ul>
        ) : (
          <p>Open a block, transaction or address by typing its number, hash or address.</p>
        )}
      </div>
    </>
  );
}
