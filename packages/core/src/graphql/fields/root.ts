import type { GraphqlContribution } from '../../modules/graphql-contribution.js';
import { AddressScalar, BlockNumberScalar, HashScalar } from '../scalars.js';

/** What every module's fields build on: the scalars, the root types (`Query`, `Subscription`) the modules extend, and connections' `PageInfo`. */
export const rootFields: GraphqlContribution = {
  typeDefs: /* GraphQL */ `
"A 0x-prefixed 20-byte hex address; answered in lowercase."
scalar Address

"A 0x-prefixed 32-byte hex hash; answered in lowercase."
scalar Hash

"A block number: a non-negative decimal string (or Int), or latest (the newest indexed block)."
scalar BlockNumber

"What resolving a field costs beyond its place in the query, counted toward maxCost once per object it is resolved for: a field that asks the node (100 for a trace, 20 for another round trip)."
directive @cost(weight: Int!) on FIELD_DEFINITION

type Query

type Subscription

type PageInfo {
  hasNextPage: Boolean!
  "Opaque: pass it back as after to read the next page."
  endCursor: String
}
`,
  resolvers: { Address: AddressScalar, Hash: HashScalar, BlockNumber: BlockNumberScalar },
};
