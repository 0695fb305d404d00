import { ERROR_TABLE } from '../../errors/index.js';
import { INTROSPECTION_MAX_DEPTH } from '../../graphql/limits.js';
import { CREDENTIALS_CLOSE_CODE } from '../../sockets/credential-watch.js';

/**
 * What the API reference says beside its routes (Markdown, in the document's `info.description`):
 * how call traces follow the blocks, how rate limits count, the API key cap, how WebSocket
 * connections end and the GraphQL limits.
 * Figures are the defaults, with the option that changes each.
 */
export const REFERENCE_NOTES = `
## Call traces follow the blocks

A block is served as soon as its block and receipts are stored. Its call traces (internal
transactions, and contracts created inside transactions with their creator) are read behind it, by
a pipeline of their own: \`GET /api/v1/health\` tells \`tracedBlock\`, the block through which every
block's traces are stored (\`null\` before the first is traced and where the node does not trace),
and \`traceLag\`; GraphQL tells \`blockchain { tracedBlock }\`. Answers from traces (Etherscan's
\`txlistinternal\` by address or block range; a contract's \`creator\`, \`creationTx\` and
\`creationBlock\` when another contract created it) hold what is traced so far: for blocks above
\`tracedBlock\` they may still grow. While the indexer catches up with the node, traces wait for it,
then follow within seconds (\`indexer.traceCatchUpConcurrency\` lets them run alongside).
\`txlistinternal&txhash=\` and \`POST /api/v1/transaction/{hash}/trace\` read the node at once.

## Rate limits

Anonymous callers are counted per client address, authenticated ones per account: every request
of a user, with a JWT or any of their API keys, spends that user's one allowance (per minute and per
UTC day: 1,000 and 100,000, or 10,000 and 1,000,000 for premium users; anonymous 100 and 10,000;
\`rateLimits\`). An admin may give a key a per-minute figure of its own (\`PATCH /api/v1/admin/api-keys/{id}\`),
counted on the key on top of the account's allowance: a request with that key passes while the key
is within its figure and the account within the larger of the tier's per-minute allowance and the
figure. Below the tier it caps that key's share (its refused calls spend nothing of the account);
above it, it is the admin's grant, usable by that key alone. Every answer carries
\`X-RateLimit-Limit\` (per minute: the account's, or the key's own figure), \`X-RateLimit-Remaining\`
(the smallest of what is left of the minute, the day and the key's figure) and \`X-RateLimit-Reset\`
(Unix seconds); over it, 429 \`${ERROR_TABLE.RATE_LIMITED.message}\` with \`Retry-After\`.

## API keys

A user holds at most 10 live keys, active and unexpired (\`auth.maxApiKeysPerUser\`): creating one
more answers 409 \`${ERROR_TABLE.API_KEY_LIMIT.message}\` until one is revoked or expires.

## WebSocket connections

\`/ws\` (channels) and \`/graphql\` (\`graphql-transport-ws\`) take credentials at connect (\`?token=\`,
\`?apiKey=\` or the REST headers; \`/ws\` also an \`auth\` message). A connection lasts as long as its
credentials: it is closed with code **${CREDENTIALS_CLOSE_CODE}** and, as the reason, what REST
answers those credentials now: \`${ERROR_TABLE.TOKEN_EXPIRED.message}\` when its JWT expires,
\`${ERROR_TABLE.INVALID_API_KEY.message}\` when its key is revoked or expires or the key's owner is
deactivated, \`${ERROR_TABLE.UNAUTHORIZED.message}\` when the user of its JWT is deactivated. A
revocation or deactivation closes the connections at once, on every instance of a cluster; the
credentials of open connections are also checked again every 5 s (\`sockets.credentialCheckIntervalMs\`).
Connections per client address (100, \`sockets.maxConnectionsPerIp\`) include handshakes still being
checked; beyond, the upgrade is answered 429. Other close codes: 1009 (a message over
\`sockets.maxMessageBytes\`), 1001 (the server is shutting down).

## GraphQL limits

Checked on every operation before any resolver runs (\`graphql\`): depth 8, 15 aliases, 10
directives, 2,000 tokens, 10,000 characters, 10 operations per batch, \`first\` at most 100, and an
estimated cost of 5,000 (a leaf field 1, an object field 2 plus its selections, a connection times
its \`first\`). Introspection counts like any other field: toward the cost, and toward depth within a
fixed budget of ${INTROSPECTION_MAX_DEPTH} levels under \`__schema\` or \`__type\` (the depth of the
standard introspection query). Over a limit, the answer is a GraphQL error with \`extensions.code\`
\`LIMIT_EXCEEDED\` and \`extensions.limit\` naming the limit (\`introspectionDepth\` for introspection).
`;
