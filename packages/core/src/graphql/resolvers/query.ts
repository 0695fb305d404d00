import { GraphQLError } from 'graphql';
import { BlockNotFoundError, ChartNotFoundError, ContractNotFoundError, InvalidRequestError, TokenNotFoundError } from '../../errors/index.js';
import type { BlockTag } from '../../values/block-tag.js';
import type { ChartRecord } from '../../services/chart-service.js';
import type { BlockRecord } from '../../services/format.js';
import { orNull } from '../../services/or-null.js';
import type { Hex } from '../../storage/index.js';
import { connectionOf, type ConnectionArgs } from '../../modules/graphql-connection.js';
import type { GraphqlContext } from '../context.js';
import { search } from './search.js';

/** The newest indexed block, `null` before anything is indexed. */
export function latestBlock(context: GraphqlContext): Promise<BlockRecord | null> {
  return orNull(context.services.blocks.getBlock('latest'), BlockNotFoundError);
}

const TOKEN_SORTS = { HOLDERS: 'holders', MARKET_CAP: 'marketCap', VOLUME: 'volume' } as const;

/** Unix seconds given as a decimal string, as bigint; `undefined` when not given. */
function unixSeconds(value: string | null | undefined, field: string): bigint | undefined {
  if (value == null) return undefined;
  if (!/^(0|[1-9]\d{0,15})$/.test(value)) throw new InvalidRequestError(field, 'must be Unix seconds (a non-negative decimal integer)');
  return BigInt(value);
}

/** Root fields: entry points into the graph. */
export const queryResolvers = {
  Query: {
    blockchain: () => ({}),
    async block(_: unknown, args: { number?: BlockTag | null; hash?: Hex | null }, context: GraphqlContext) {
      if (args.number != null && args.hash != null) {
        throw new GraphQLError('block takes number or hash, not both', { extensions: { code: 'BAD_USER_INPUT' } });
      }
      if (args.hash != null) {
        const stored = await orNull(context.services.blocks.byHash(args.hash), BlockNotFoundError);
        return stored ? context.loaders.blocks.load(stored.number) : null;
      }
      return args.number == null || args.number === 'latest' ? latestBlock(context) : context.loaders.blocks.load(args.number);
    },
    transaction: (_: unknown, args: { hash: Hex }, context: GraphqlContext) => context.loaders.transactions.load(args.hash),
    account: (_: unknown, args: { address: Hex }) => ({ address: args.address }),
    token: (_: unknown, args: { address: Hex }, context: GraphqlContext) => orNull(context.services.tokens.token(args.address), TokenNotFoundError),
    tokens: (_: unknown, args: ConnectionArgs & { sort: keyof typeof TOKEN_SORTS; verified?: boolean | null }, context: GraphqlContext) =>
      // The list ranks priced tokens first, so a page is the head of the ranking cut down.
      connectionOf(args, context.pages, async (page, size) =>
        (await context.services.tokens.list({ sort: TOKEN_SORTS[args.sort], limit: page * size, ...(args.verified != null && { verified: args.verified }) })).slice(
          (page - 1) * size,
        ),
      ),
    contract: (_: unknown, args: { address: Hex }, context: GraphqlContext) => orNull(context.services.contracts.contract(args.address), ContractNotFoundError),
    search,
    chartSeries: (_: unknown, __: unknown, context: GraphqlContext) => context.services.charts.list(),
    chart: (_: unknown, args: { name: string; resolution: 'DAY' | 'HOUR'; from?: string | null; to?: string | null; token?: Hex | null }, context: GraphqlContext) =>
      orNull(
        context.services.charts.chart(args.name, {
          resolution: args.resolution === 'HOUR' ? 'hour' : 'day',
          from: unixSeconds(args.from, 'from'),
          to: unixSeconds(args.to, 'to'),
          ...(args.token != null && { token: args.token }),
        }),
        ChartNotFoundError,
      ),
  },
  Chart: {
    resolution: (chart: ChartRecord) => chart.resolution.toUpperCase(),
  },
};
