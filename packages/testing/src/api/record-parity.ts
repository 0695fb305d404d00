import { expect, it } from 'vitest';
import { get, type ApiContext } from './context.js';
import { data, post } from './graphql.js';
import { call as rpcCall, rpc, rpcError } from './json-rpc.js';

/** Every field of each record, as GraphQL is asked for it (REST's names; `transactionHash` for a transfer's `hash`). */
const PARAMETER = 'name type value';
const SELECTIONS = {
  holding: 'token name symbol decimals standard balance',
  nft: 'token tokenName tokenSymbol standard tokenId owner ownerLabel balance tokenUri metadata { name description image }',
  transfer: 'blockNumber timestamp transactionHash logIndex from fromLabel to toLabel value tokenId token standard tokenName tokenSymbol tokenDecimal transaction { hash blockNumber }',
  approval: 'token tokenName tokenSymbol tokenDecimal kind spender spenderLabel value remaining blockNumber timestamp transactionHash',
  delegation: 'address delegatedTo delegatedToLabel blockNumber',
  input: `selector contractName functionName signature source parameters { ${PARAMETER} }`,
  frame: `type from fromLabel to toLabel value gas gasUsed input output error contractName call { functionName signature source parameters { ${PARAMETER} } } result { ${PARAMETER} } revertReason revertError { errorName signature parameters { ${PARAMETER} } }`,
  balanceChanges: 'hash ether { address label change } tokens { address label token standard tokenName tokenSymbol tokenDecimal tokenId change }',
  envelope: 'hash type typeName authorizationList { chainId address addressLabel nonce authority authorityLabel } blobVersionedHashes blobCount blobGasUsed blobGasPrice maxFeePerBlobGas',
};

/** A REST token transfer as GraphQL's `AccountTokenTransfer` is asked for it above. */
function asGraphqlTransfer({ hash, transaction, ...transfer }: { hash: string; transaction: { hash: string; blockNumber: string } }) {
  return { ...transfer, transactionHash: hash, transaction: { hash: transaction.hash, blockNumber: transaction.blockNumber } };
}

const nodes = (connection: { edges: { node: any }[] }): any[] => connection.edges.map((edge) => edge.node);

/**
 * The NFT and insight records REST serves (an account's tokens, NFTs, token transfers, approvals
 * and delegation; a collection's inventory; a transaction's token transfers, decoded input and
 * calls, balance changes and envelope) are the same records over GraphQL and the `chain_*`
 * JSON-RPC methods, from the demo's real token activity. Runs before the approvals group revokes
 * the demo's approval.
 */
export function recordParityTests(ctx: () => ApiContext): void {
  const rest = async (path: string) => {
    const answer = await get(ctx(), path);
    expect(answer.status, `${path}: ${JSON.stringify(answer.body)}`).toBe(200);
    return answer.body.result;
  };

  it("GraphQL answers an account's tokens, NFTs, token transfers, approvals and delegation, and collections' inventories, as REST does", async () => {
    const { demo } = ctx();
    const owner = demo.accounts[0]!.toLowerCase();
    const page = (selection: string, first = 20) => `(first: ${first}) { edges { node { ${selection} } } pageInfo { hasNextPage } }`;
    const { account, nft, multi, erc20 } = await data(
      ctx(),
      `query ($owner: Address!, $nft: Address!, $multi: Address!, $erc20: Address!) {
        account(address: $owner) {
          tokens${page(SELECTIONS.holding)} nfts${page(SELECTIONS.nft)} tokenTransfers${page(SELECTIONS.transfer, 5)}
          approvals${page(SELECTIONS.approval)} delegation { ${SELECTIONS.delegation} }
        }
        nft: token(address: $nft) { inventory${page(SELECTIONS.nft)} }
        multi: token(address: $multi) { inventory(first: 3) { edges { node { ${SELECTIONS.nft} } } pageInfo { endCursor } } }
        erc20: token(address: $erc20) { inventory { edges { cursor } } }
      }`,
      { owner, nft: demo.contracts.nft, multi: demo.contracts.multiToken, erc20: demo.contracts.token },
    );
    expect(nodes(account.tokens)).toEqual(await rest(`/api/v1/account/tokens?address=${owner}&offset=20`));
    expect(nodes(account.nfts)).toEqual(await rest(`/api/v1/account/nfts?address=${owner}&offset=20`));
    expect(nodes(account.nfts).map((held: { standard: string }) => held.standard).sort()).toEqual(['ERC-1155', 'ERC-721']);
    expect(nodes(account.tokenTransfers)).toEqual((await rest(`/api/v1/account/token-transfers?address=${owner}&offset=5`)).map(asGraphqlTransfer));
    const approvals = nodes(account.approvals);
    expect(approvals).toEqual(await rest(`/api/v1/account/approvals?address=${owner}&offset=20`));
    expect(approvals).toContainEqual(expect.objectContaining({ transactionHash: demo.transactions.approve, remaining: '50000000000000000000' }));
    expect(account.delegation).toEqual(await rest(`/api/v1/account/delegation?address=${owner}`));
    expect([account.tokens, account.nfts, account.approvals, nft.inventory].map((connection) => connection.pageInfo.hasNextPage)).toEqual([false, false, false, false]);
    expect(nodes(nft.inventory)).toEqual(await rest(`/api/v1/token/${demo.contracts.nft}/inventory?offset=20`));
    // A second page, after the first one's cursor, continues where REST's larger page does.
    const next = await data(ctx(), `query ($multi: Address!, $after: String) { token(address: $multi) { inventory(first: 3, after: $after) { edges { node { ${SELECTIONS.nft} } } } } }`, {
      multi: demo.contracts.multiToken,
      after: multi.inventory.pageInfo.endCursor,
    });
    expect([...nodes(multi.inventory), ...nodes(next.token.inventory)]).toEqual(await rest(`/api/v1/token/${demo.contracts.multiToken}/inventory?offset=6`));
    // REST's inventory of an ERC-20 token is 404; GraphQL's is null, as unknown records are.
    expect(erc20.inventory).toBeNull();
    for (const [field, args] of [['nfts', 'first: 0'], ['approvals', 'after: "bogus"'], ['tokenTransfers', 'first: 101']]) {
      const refused = await post(ctx(), { query: `{ account(address: "${owner}") { ${field}(${args}) { edges { cursor } } } }` });
      expect(refused.body.errors, field).toEqual([expect.objectContaining({ path: ['account', field], extensions: { code: 'BAD_USER_INPUT' } })]);
    }
  });

  it("GraphQL answers a transaction's token transfers, decoded input, calls, balance changes and envelope as REST does", async () => {
    const { transferFrom, nestedPing, multiBatchTransfer } = ctx().demo.transactions;
    const query = `query ($hash: Hash!) { transaction(hash: $hash) {
      tokenTransfers { ${SELECTIONS.transfer} } decodedInput { ${SELECTIONS.input} }
      calls { ${SELECTIONS.frame} calls { ${SELECTIONS.frame} calls { type } } }
      balanceChanges { ${SELECTIONS.balanceChanges} } envelope { ${SELECTIONS.envelope} } } }`;
    const answered = new Map<string, any>();
    for (const hash of [transferFrom, nestedPing, multiBatchTransfer]) {
      const { transaction } = await data(ctx(), query, { hash });
      answered.set(hash, transaction);
      expect(transaction.tokenTransfers, hash).toEqual((await rest(`/api/v1/transaction/${hash}/token-transfers`)).map(asGraphqlTransfer));
      expect(transaction.decodedInput, hash).toEqual(await rest(`/api/v1/transaction/${hash}/input`));
      expect(transaction.calls, hash).toEqual(await rest(`/api/v1/transaction/${hash}/calls`));
      expect(transaction.balanceChanges, hash).toEqual(await rest(`/api/v1/transaction/${hash}/balance-changes`));
      expect(transaction.envelope, hash).toEqual(await rest(`/api/v1/transaction/${hash}/envelope`));
    }
    // The emitter's ping, called by the caller contract: the tree is two calls deep.
    expect(answered.get(nestedPing).calls.calls.map((frame: { to: string }) => frame.to)).toEqual([ctx().demo.contracts.emitter.toLowerCase()]);
    expect(answered.get(multiBatchTransfer).tokenTransfers.map((transfer: { tokenId: string }) => transfer.tokenId)).toEqual(['2', '3']);
  });

  it('the chain_getAccount*, chain_getTokenInventory and chain_getTransaction* methods answer REST’s records; bad params are -32602, unknown records -32001', async () => {
    const { demo, url } = ctx();
    const owner = demo.accounts[0]!.toLowerCase();
    const holder = demo.accounts[1]!;
    const { transferFrom, nestedPing } = demo.transactions;
    const cases: [method: string, params: unknown[], path: string][] = [
      ['chain_getAccountTokens', [owner], `/api/v1/account/tokens?address=${owner}`],
      ['chain_getAccountNfts', [holder], `/api/v1/account/nfts?address=${holder}`],
      ['chain_getAccountNfts', [holder, 2, 1], `/api/v1/account/nfts?address=${holder}&page=2&offset=1`],
      ['chain_getAccountTokenTransfers', [owner, null, 500], `/api/v1/account/token-transfers?address=${owner}&offset=100`],
      ['chain_getAccountApprovals', [owner], `/api/v1/account/approvals?address=${owner}`],
      ['chain_getAccountDelegation', [owner], `/api/v1/account/delegation?address=${owner}`],
      ['chain_getTokenInventory', [demo.contracts.multiToken, 1, 3], `/api/v1/token/${demo.contracts.multiToken}/inventory?offset=3`],
      ['chain_getTransactionTokenTransfers', [transferFrom], `/api/v1/transaction/${transferFrom}/token-transfers`],
      ['chain_getTransactionInput', [transferFrom], `/api/v1/transaction/${transferFrom}/input`],
      ['chain_getTransactionCalls', [nestedPing], `/api/v1/transaction/${nestedPing}/calls`],
      ['chain_getTransactionBalanceChanges', [transferFrom], `/api/v1/transaction/${transferFrom}/balance-changes`],
      ['chain_getTransactionEnvelope', [transferFrom.toUpperCase().replace('0X', '0x')], `/api/v1/transaction/${transferFrom}/envelope`],
    ];
    const answers = await rpc(url, cases.map(([method, params], id) => rpcCall(method, params, id)));
    for (const [id, [method, params, path]] of cases.entries()) {
      expect(answers.body[id], `${method} ${JSON.stringify(params)}`).toEqual({ jsonrpc: '2.0', id, result: await rest(path) });
    }
    expect(answers.body[1].result.length).toBeGreaterThan(1);

    const invalid: [string, unknown[]][] = [
      ['chain_getAccountNfts', []],
      ['chain_getAccountNfts', ['0x12']],
      ['chain_getAccountNfts', [owner, 0]],
      ['chain_getAccountApprovals', [owner, 1, 1.5]],
      ['chain_getTokenInventory', [demo.contracts.nft, '1']],
      ['chain_getAccountTokens', [owner, 1, 50, 'extra']],
      ['chain_getAccountDelegation', [owner, 1]],
      ['chain_getTransactionInput', ['0x12']],
      ['chain_getTransactionEnvelope', []],
    ];
    for (const [method, params] of invalid) {
      const answer = await rpc(url, rpcCall(method, params, 9));
      expect(answer.body, `${method} ${JSON.stringify(params)}`).toEqual(rpcError(9, -32602));
      expect(answer.body.error.message).toMatch(/^Invalid params: /);
    }
    expect((await rpc(url, rpcCall('chain_getTokenInventory', [demo.contracts.token]))).body).toEqual(rpcError(1, -32001, 'Error! Token contract not found'));
    expect((await rpc(url, rpcCall('chain_getTransactionCalls', [`0x${'ab'.repeat(32)}`]))).body).toEqual(rpcError(1, -32001, 'Error! Transaction not found'));
  });
}
