import type { GraphqlContribution } from './contribution.js';
import { chainFields } from './fields/chain.js';
import { consensusFields } from './fields/consensus.js';
import { rootFields } from './fields/root.js';
import { tracingFields } from './fields/tracing.js';

/**
 * The fields the explorer's own modules contribute (chain, indexing, consensus), in their order
 * of registration. `features/explorer-graphql.test.ts` checks that `/graphql` serves exactly these.
 */
export const BUILT_IN_GRAPHQL: readonly GraphqlContribution[] = [chainFields, tracingFields, consensusFields];

/**
 * The GraphQL schema (SDL) the explorer serves: the root types and the built-in modules' fields.
 * Amounts, block numbers and other quantities are decimal strings, as in REST: a uint256 never
 * passes through a Float. Lists are Relay-style connections.
 */
export const typeDefs = [rootFields, ...BUILT_IN_GRAPHQL].map((part) => part.typeDefs).join('');
