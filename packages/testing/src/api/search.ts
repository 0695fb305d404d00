import { pino } from 'pino';
import type { Address } from 'viem';
import { expect, it } from 'vitest';
import { asText, createExplorer } from '@chainlens/core';
import { errorEnvelope, get, indexedToHead, waitFor, type ApiContext } from './context.js';
import { deployContract, ownChains } from './own-chains.js';
import { deployEmitter, storeVerifiedEmitter } from './verified-emitter.js';

/** 60 tokens named alike in one transaction: a search for their name has more matches than an answer holds. */
const LOOKALIKES = /* solidity */ `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

contract Lookalike {
    string public name = "Lookalike Coin";
    string public symbol = "LOOK";
    uint8 public decimals = 0;
    event Transfer(address indexed from, address indexed to, uint256 value);

    constructor(address to) {
        emit Transfer(address(0), to, 1);
    }
}

contract LookalikeFactory {
    function create(uint256 count) external {
        for (uint256 i = 0; i < count; i++) new Lookalike(msg.sender);
    }
}
`;

/** The GraphQL selection of every match type's fields. */
const MATCH_FIELDS = `__typename
  ... on BlockMatch { type blockNumber hash }
  ... on TransactionMatch { type hash blockNumber }
  ... on ContractMatch { type address name label }
  ... on AddressMatch { type address label }
  ... on TokenMatch { type address name symbol standard }`;

/** `GET /api/v1/search` and GraphQL's `search`: every kind of query, paging and bad input. */
export function searchTests(ctx: () => ApiContext): void {
  const { ownChain, ownExplorer } = ownChains(ctx);

  /** The matches `q` finds (through `context`, the suite's by default), failing on anything but 200. */
  async function search(q: string, query = '', context = ctx()): Promise<unknown[]> {
    const answer = await get(context, `/api/v1/search?q=${encodeURIComponent(q)}${query}`);
    expect(answer.status, `${q}: ${JSON.stringify(answer.body)}`).toBe(200);
    expect(answer.body.message).toBe('OK');
    return answer.body.result as unknown[];
  }

  /** GraphQL's `search(q, first)` over the suite's server. */
  async function graphqlSearch(q: string, first?: number): Promise<{ data?: { search: unknown[] }; errors?: { message: string; extensions: { code: string } }[] }> {
    const response = await fetch(`${ctx().url}/graphql`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ query: `query ($q: String!, $first: Int) { search(q: $q, first: $first) { ${MATCH_FIELDS} } }`, variables: { q, first } }),
    });
    return (await response.json()) as never;
  }

  it('finds an indexed block by number or hash and a transaction by hash; an unknown number or hash finds nothing', async () => {
    await indexedToHead(ctx());
    const { demo, chain } = ctx();
    const receipt = await chain.publicClient.getTransactionReceipt({ hash: demo.transactions.transfer });
    const block = await chain.publicClient.getBlock({ blockNumber: receipt.blockNumber });
    const blockMatch = { type: 'block', blockNumber: block.number.toString(), hash: block.hash };
    expect(await search(block.number.toString())).toEqual([blockMatch]);
    expect(await search(`  ${block.hash.toUpperCase().replace('0X', '0x')}  `)).toEqual([blockMatch]);
    expect(await search(receipt.transactionHash)).toEqual([{ type: 'transaction', hash: receipt.transactionHash, blockNumber: receipt.blockNumber.toString() }]);
    for (const nothing of [`0x${'ab'.repeat(32)}`, '99999999', '9'.repeat(200)]) expect(await search(nothing), nothing).toEqual([]);
  });

  it('tells a token, a contract (named by its verified source) and a plain address apart', async () => {
    const { token, nft, emitter, child } = ctx().demo.contracts;
    const lower = (address: Address) => address.toLowerCase();
    expect(await search(token)).toEqual([
      { type: 'token', address: lower(token), name: 'Demo Token', symbol: 'DEMO', standard: 'ERC-20' },
      { type: 'contract', address: lower(token), name: 'Demo Token', label: null },
    ]);
    expect(await search(`0x${nft.slice(2).toUpperCase()}`)).toEqual([
      { type: 'token', address: lower(nft), name: 'Demo NFT', symbol: 'DNFT', standard: 'ERC-721' },
      { type: 'contract', address: lower(nft), name: 'Demo NFT', label: null },
    ]);
    expect(await search(emitter)).toEqual([{ type: 'contract', address: lower(emitter), name: null, label: null }]);
    // Created inside a transaction: known from its indexed creation and its code.
    expect(await search(child)).toEqual([{ type: 'contract', address: lower(child), name: null, label: null }]);
    const verified = await deployEmitter(ctx());
    await storeVerifiedEmitter(ctx(), verified);
    expect(await search(verified)).toEqual([{ type: 'contract', address: verified, name: 'EventEmitter', label: null }]);
    const account = lower(ctx().demo.accounts[9]!);
    expect(await search(account)).toEqual([{ type: 'address', address: account, label: null }]);
    const unseen = `0x${'5e'.repeat(20)}`;
    expect(await search(unseen)).toEqual([{ type: 'address', address: unseen, label: null }]);
  });

  it('finds tokens by the start of their name or symbol, ignoring case: an exact name or symbol first, then the most held', async () => {
    const { token, nft, quoteToken } = ctx().demo.contracts;
    const storage = ctx().explorer.storage;
    await waitFor(async () => (await storage.listTokensWithoutMetadata(10)).length === 0, 'every token’s metadata');
    const holders = async (address: Address) => (await get(ctx(), `/api/v1/token/${address}`)).body.result.holders as number;
    const [nftHolders, dusdHolders] = [await holders(nft), await holders(quoteToken)];
    // DEMO's symbol is the query itself; the other two merely start with it, the most held first.
    const others = nftHolders >= dusdHolders ? [nft, quoteToken] : [quoteToken, nft];
    const addresses = (matches: unknown[]) => matches.map((match) => (match as { address: string }).address);
    expect(addresses(await search('demo'))).toEqual([token, ...others].map((address) => address.toLowerCase()));
    expect(addresses(await search('DeMo', '&limit=1'))).toEqual([token.toLowerCase()]);
    expect(await search('demo d')).toEqual([{ type: 'token', address: quoteToken.toLowerCase(), name: 'Demo Dollar', symbol: 'DUSD', standard: 'ERC-20' }]);
    expect(addresses(await search('dnf'))).toEqual([nft.toLowerCase()]);
    // One character names too many tokens; LIKE's wildcards are plain characters.
    for (const nothing of ['d', 'de%', '%', '_emo', 'demo token x']) expect(await search(nothing), nothing).toEqual([]);
  });

  it('answers at most limit matches: 10 by default, and a limit over 50 is clamped to 50', async () => {
    const chain = await ownChain();
    const factory = await deployContract(chain, { 'Lookalikes.sol': LOOKALIKES }, 'LookalikeFactory');
    const created = await chain.walletClient.writeContract({ address: factory, abi: [{ type: 'function', name: 'create', inputs: [{ name: 'count', type: 'uint256' }], outputs: [], stateMutability: 'nonpayable' }], functionName: 'create', args: [60n], gas: 30_000_000n });
    expect((await chain.publicClient.waitForTransactionReceipt({ hash: created, pollingInterval: 10 })).status).toBe('success');
    const own = await ownExplorer({}, chain);
    await waitFor(async () => (await own.explorer.storage.listTokensWithoutMetadata(100)).length === 0, 'the lookalikes’ metadata');
    const all = (await own.explorer.storage.listTokens({ limit: 100 })).map((stored) => stored.address);
    expect(all.length).toBe(60);
    // Equally held and moved, so by address.
    const sorted = [...all].sort();
    const match = (address: string) => ({ type: 'token', address, name: 'Lookalike Coin', symbol: 'LOOK', standard: 'ERC-20' });
    expect(await search('look', '', own)).toEqual(sorted.slice(0, 10).map(match));
    expect(await search('LOOKALIKE', '&limit=25', own)).toEqual(sorted.slice(0, 25).map(match));
    expect(await search('look', '&limit=1000', own)).toEqual(sorted.slice(0, 50).map(match));
  });

  it('refuses a missing, empty or over-long q and a bad limit with 400, never 500', async () => {
    const cases = ['', '?q=', '?q=%20%20%20', `?q=${'a'.repeat(201)}`, '?q=a%00b', '?q=demo&limit=0', '?q=demo&limit=-1', '?q=demo&limit=1.5', '?q=demo&limit=ten', '?q=demo&limit='];
    for (const query of cases) {
      const answer = await get(ctx(), `/api/v1/search${query}`);
      expect(answer.status, query).toBe(400);
      expect(answer.body.status, query).toBe('0');
      expect(answer.body.message, query).toMatch(/^Error! Invalid request: (q|limit): /);
      expect(answer.body.result, query).toBeNull();
    }
    expect((await get(ctx(), '/api/v1/search')).body).toEqual(errorEnvelope('Error! Invalid request: q: is required'));
    expect((await get(ctx(), '/api/v1/search?q=')).body).toEqual(errorEnvelope('Error! Invalid request: q: must not be empty'));
    expect((await get(ctx(), '/api/v1/search?q=a%07')).body).toEqual(errorEnvelope('Error! Invalid request: q: must not contain control characters'));
    expect(await search('a'.repeat(200))).toEqual([]);
  });

  it('GraphQL search answers what REST answers, each match typed; bad input is a BAD_USER_INPUT error', async () => {
    const { token, emitter } = ctx().demo.contracts;
    const { transfer } = ctx().demo.transactions;
    for (const q of ['demo', token, emitter, transfer, '1', ctx().demo.accounts[4]!]) {
      const rest = await search(q);
      const answer = await graphqlSearch(q);
      expect(answer.errors, q).toBeUndefined();
      const typeName = { block: 'BlockMatch', transaction: 'TransactionMatch', contract: 'ContractMatch', address: 'AddressMatch', token: 'TokenMatch' } as const;
      expect(answer.data!.search, q).toEqual(rest.map((match) => ({ __typename: typeName[(match as { type: keyof typeof typeName }).type], ...(match as object) })));
    }
    expect((await graphqlSearch('demo', 1)).data!.search).toHaveLength(1);
    for (const [q, first, message] of [
      ['  ', undefined, 'q: must not be empty'],
      ['a'.repeat(201), undefined, 'q: must be at most 200 characters'],
      ['demo', 0, 'first must be between 1 and 50; got 0'],
      ['demo', 51, 'first must be between 1 and 50; got 51'],
    ] as const) {
      const answer = await graphqlSearch(q, first);
      expect(answer.errors?.[0], message).toMatchObject({ message, extensions: { code: 'BAD_USER_INPUT' } });
    }
  });

  it('GraphQL counts a search by the matches it may answer and every type’s fields', async () => {
    const explorer = await createExplorer({ rpcUrl: ctx().chain.rpcUrl, storage: await ctx().options.storage(), logger: pino({ level: 'silent' }), graphql: { maxCost: 10 } });
    try {
      const costOf = async (query: string) => {
        const response = await explorer.kernel.handle({ method: 'POST', url: '/graphql', headers: {}, ip: '127.0.0.1', body: { query } });
        const { errors } = JSON.parse(asText(response).body) as { errors: { message: string; extensions: { limit: string } }[] };
        expect(errors[0]!.extensions.limit).toBe('maxCost');
        return Number(/^Query costs (\d+);/.exec(errors[0]!.message)![1]);
      };
      // (2 + 19 fields of all five types) × 10 matches by default; (2 + 2) × 5.
      expect(await costOf(`{ search(q: "demo") { ${MATCH_FIELDS} } }`)).toBe(210);
      expect(await costOf('{ search(q: "demo", first: 5) { ... on TokenMatch { address symbol } } }')).toBe(20);
    } finally {
      await explorer.close();
    }
  });
}
