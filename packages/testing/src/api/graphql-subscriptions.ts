import { createClient, type Client } from 'graphql-ws';
import { parseEther, type Address } from 'viem';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createChannelContext, SUITE_SOCKET_LIMITS, userToken, type ChannelContext, type ChannelSuiteOptions } from '../sockets/context.js';
import { waitFor } from './context.js';

/** A subscription's results as they arrive, read in order by `next`. */
interface Stream {
  results: Record<string, any>[];
  next(what: string): Promise<Record<string, any>>;
  stop(): Promise<void>;
}

/**
 * GraphQL subscriptions over `graphql-ws` at `/graphql`, through whatever adapter `options`
 * serves: `blocks`, `transactions`, `addressTransactions`, `tokenTransfers` fed by real
 * transactions on anvil, the socket gateway's authentication, and the document and
 * per-connection limits.
 *
 * @example
 * ```ts
 * graphqlSubscriptionSuite({ name: 'fastify + memory', storage: () => memoryStorage(), serve, WebSocket });
 * ```
 */
export function graphqlSubscriptionSuite(options: ChannelSuiteOptions): void {
  describe(`GraphQL subscriptions (${options.name})`, () => {
    let context: ChannelContext | undefined;
    const ctx = () => {
      if (!context) throw new Error('GraphQL subscription suite context was not created');
      return context;
    };
    const clients: Client[] = [];
    beforeAll(async () => {
      context = await createChannelContext(options);
    });
    afterEach(async () => {
      await Promise.all(clients.splice(0).map((client) => client.dispose()));
    });
    afterAll(async () => {
      await context?.close();
    });

    const client = (query = '') => {
      const created = createClient({ url: `${ctx().url.replace(/^http/, 'ws')}/graphql${query}`, webSocketImpl: options.WebSocket, retryAttempts: 0, lazy: false, onNonLazyError: () => {} });
      clients.push(created);
      return created;
    };
    /** GraphQL subscriptions the server has set up, as its socket statistics count them. */
    const subscriptions = () => Object.values(ctx().explorer.sockets.stats().endpoints['/graphql'] ?? {}).reduce((sum, count) => sum + count, 0);
    /** Listeners of the hub's block event. */
    const blockListeners = () => ctx().explorer.hub.all.get('block')?.length ?? 0;

    function subscribe(graphql: Client, query: string, variables?: Record<string, unknown>): Stream {
      const iterator = graphql.iterate({ query, variables });
      const results: Record<string, any>[] = [];
      let failure: unknown = null;
      void (async () => {
        try {
          for await (const result of iterator) results.push(result);
        } catch (error) {
          failure = error;
        }
      })();
      let read = 0;
      return {
        results,
        async next(what) {
          await waitFor(() => results.length > read || failure !== null, what);
          if (read >= results.length) throw new Error(`${what}: ${JSON.stringify(failure)}`);
          return results[read++]!;
        },
        stop: async () => {
          await iterator.return?.();
        },
      };
    }

    it('streams blocks, transactions and one address’s transactions as the indexer writes them, shaped as REST shapes them', async () => {
      const graphql = client();
      const before = subscriptions();
      const blocks = subscribe(graphql, 'subscription { blocks { number hash transactionCount } }');
      const transactions = subscribe(graphql, 'subscription { transactions { hash from to value } }');
      const watched = ctx().chain.accounts[9]!.address.toLowerCase();
      const mine = subscribe(graphql, 'subscription ($a: Address!) { addressTransactions(address: $a) { hash from to value confirmations } }', { a: watched });
      await waitFor(() => subscriptions() >= before + 3, 'the three subscriptions to be set up');
      const wallet = ctx().chain.walletClients[8]!;
      const other = await wallet.sendTransaction({ to: ctx().chain.accounts[7]!.address as Address, value: parseEther('0.01') });
      const toWatched = await wallet.sendTransaction({ to: watched as Address, value: parseEther('0.02') });
      const block = (await blocks.next('a block')).data.blocks;
      const rest = ((await (await fetch(`${ctx().url}/api/v1/block/getblock?blockno=${block.number}`)).json()) as any).result;
      expect(block).toEqual({ number: rest.blockNumber, hash: rest.hash, transactionCount: rest.transactionCount });
      const first = (await transactions.next('the first transaction')).data.transactions;
      const second = (await transactions.next('the second transaction')).data.transactions;
      expect([first.hash, second.hash]).toEqual([other, toWatched]);
      expect(second.value).toBe(parseEther('0.02').toString());
      const received = (await mine.next('the watched address’s transaction')).data.addressTransactions;
      expect(received).toMatchObject({ hash: toWatched, to: watched, value: parseEther('0.02').toString(), confirmations: '1' });
      await ctx().indexed();
      expect(mine.results.map((result) => result.data.addressTransactions.hash)).toEqual([toWatched]);
      await Promise.all([blocks.stop(), transactions.stop(), mine.stop()]);
      await waitFor(() => subscriptions() === before, 'the subscriptions to stop listening');
    });

    it('streams a token’s transfers as token/:address/transfers answers them', async () => {
      const graphql = client();
      const token = ctx().demo.contracts.token.toLowerCase();
      const before = subscriptions();
      const transfers = subscribe(graphql, 'subscription ($t: Address!) { tokenTransfers(token: $t) { transactionHash logIndex from to value token { symbol } } }', { t: token });
      await waitFor(() => subscriptions() >= before + 1, 'the subscription to be set up');
      const to = ctx().chain.accounts[6]!.address;
      const hash = await ctx().chain.walletClient.writeContract({ address: token as Address, abi: ctx().demo.abis.token, functionName: 'transfer', args: [to, 12345n] });
      const transfer = (await transfers.next('the transfer')).data.tokenTransfers;
      expect(transfer).toMatchObject({ transactionHash: hash, to: to.toLowerCase(), value: '12345', token: { symbol: 'DEMO' } });
      const rest = ((await (await fetch(`${ctx().url}/api/v1/token/${token}/transfers?page=1&offset=1`)).json()) as any).result[0];
      expect({ from: transfer.from, to: transfer.to, value: transfer.value, logIndex: transfer.logIndex }).toEqual({ from: rest.from, to: rest.to, value: rest.value, logIndex: rest.logIndex });
    });

    it('runs as the caller who connected: account summary with a token, Unauthorized without, and a bad token is refused at connect', async () => {
      const address = ctx().demo.accounts[0]!.toLowerCase();
      const query = `{ account(address: "${address}") { summary { isContract } } }`;
      const token = await userToken(ctx());
      const signedIn = subscribe(client(`?token=${token}`), query);
      expect((await signedIn.next('the summary')).data).toEqual({ account: { summary: { isContract: false } } });
      const anonymous = subscribe(client(), query);
      expect((await anonymous.next('the refusal')).errors[0]).toMatchObject({ message: 'Unauthorized', path: ['account', 'summary'] });
      const refused = subscribe(client('?token=not-a-token'), query);
      await expect(refused.next('a refusal')).rejects.toThrow();
    });

    it('refuses operations over the document limits and past the per-connection operation limit', async () => {
      const graphql = client();
      const deep = subscribe(graphql, 'subscription { blocks { transactions { edges { node { block { transactions { edges { node { block { number } } } } } } } } } }');
      await expect(deep.next('the depth refusal')).rejects.toThrow(/nested 10 levels deep; the limit is 8/);
      const before = subscriptions();
      const listening = blockListeners();
      const open = Array.from({ length: SUITE_SOCKET_LIMITS.maxSubscriptions }, () => subscribe(graphql, 'subscription { blocks { number } }'));
      await waitFor(() => subscriptions() >= before + open.length, 'the allowed subscriptions to be set up');
      // One hub listener serves every blocks subscriber, however many there are.
      expect(blockListeners()).toBeLessThanOrEqual(listening + 1);
      const extra = subscribe(graphql, 'subscription { blocks { number } }');
      await expect(extra.next('the refusal')).rejects.toThrow(`at most ${SUITE_SOCKET_LIMITS.maxSubscriptions} operations`);
    });
  });
}
