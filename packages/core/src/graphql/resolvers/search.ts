import { GraphQLError } from 'graphql';
import { textSchema } from '../../http/request-schemas.js';
import { SEARCH_LIMITS, type SearchMatch } from '../../services/search-service.js';
import type { GraphqlContext } from '../context.js';

/** `q` as REST's `GET /search` takes it. */
const qSchema = textSchema(SEARCH_LIMITS.maxLength, { min: 1 });

const TYPE_NAMES = {
  block: 'BlockMatch',
  transaction: 'TransactionMatch',
  contract: 'ContractMatch',
  address: 'AddressMatch',
  token: 'TokenMatch',
} as const satisfies Record<SearchMatch['type'], string>;

/** `search(q, first)`: REST's search, its input refused as GraphQL input errors. */
export function search(_: unknown, args: { q: string; first?: number | null }, context: GraphqlContext): Promise<SearchMatch[]> {
  const q = qSchema.safeParse(args.q);
  if (!q.success) throw new GraphQLError(`q: ${q.error.issues[0]!.message}`, { extensions: { code: 'BAD_USER_INPUT' } });
  const first = args.first ?? SEARCH_LIMITS.defaultLimit;
  if (!Number.isInteger(first) || first < 1 || first > SEARCH_LIMITS.maxLimit) {
    throw new GraphQLError(`first must be between 1 and ${SEARCH_LIMITS.maxLimit}; got ${first}`, { extensions: { code: 'BAD_USER_INPUT' } });
  }
  return context.services.search.search(q.data, first);
}

/** A match's GraphQL type, by its `type`. */
export const searchResolvers = {
  SearchMatch: {
    __resolveType: (match: SearchMatch) => TYPE_NAMES[match.type],
  },
};
