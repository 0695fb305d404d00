import { z } from 'zod';
import type { ChainClient } from '../../chain/chain-client.js';
import type { Services } from '../../explorer-services.js';
import type { Hex } from '../../storage/index.js';
import { ADDRESS, HASH } from '../../values/hex.js';
import type { JsonRpcMethod } from './dispatcher.js';
import { RpcInvalidParamsError } from './json-rpc-errors.js';
import { forwardRead, NODE_READ_METHODS } from './node-reads.js';

/** A block number as JSON-RPC clients send it: a hex quantity, or (leniently) decimal. */
const blockNumber = z
  .union([z.string().regex(/^(0x(0|[1-9a-fA-F][0-9a-fA-F]{0,15})|0|[1-9]\d{0,19})$/), z.number().int().nonnegative()], {
    message: 'must be a block number (hex quantity)',
  })
  .transform((value) => BigInt(value));

/** `latest` (the newest indexed block) or a block number. */
const blockTag = z.union([z.literal('latest'), blockNumber], { message: 'must be "latest" or a block number (hex quantity)' });

const signedTransaction = z.string().regex(/^0x([0-9a-fA-F]{2})+$/, 'must be a signed transaction in hex');

/** An address, and a hash, in any case, read as storage keeps them (lowercase). */
const address = z
  .string()
  .regex(ADDRESS, 'must be a 0x-prefixed 20-byte hex address')
  .transform((value) => value.toLowerCase() as Hex);
const hash = z
  .string()
  .regex(HASH, 'must be a 0x-prefixed 32-byte hex hash')
  .transform((value) => value.toLowerCase() as Hex);

/** A page number from 1, as REST's `page`; absent (or `null`) is the first page. */
const page = z
  .number({ message: 'must be a positive integer' })
  .int('must be a positive integer')
  .positive('must be a positive integer')
  .nullish()
  .transform((value) => value ?? 1);

/** Rows per page, as REST's `offset`: 50 when absent (or `null`), above 100 clamped to 100. */
const offset = z
  .number({ message: 'must be a positive integer' })
  .int('must be a positive integer')
  .positive('must be a positive integer')
  .nullish()
  .transform((value) => Math.min(value ?? 50, 100));

/** `[subject, page?, offset?]`: the parameters of a paged list of one address's or token's records. */
const pagedOf = <S extends z.ZodType>(subject: S) => z.tuple([subject, page, offset]);

/** A method whose positional parameters `schema` (a tuple) checks first: a mismatch is Invalid params. */
function withParams<S extends z.ZodType<unknown[]>>(schema: S, run: (params: z.output<S>) => Promise<unknown>): JsonRpcMethod {
  return (params) => {
    const parsed = schema.safeParse(params);
    if (!parsed.success) {
      const issue = parsed.error.issues[0]!;
      throw new RpcInvalidParamsError(issue.path.length > 0 ? `${issue.path.join('.')}: ${issue.message}` : issue.message);
    }
    return run(parsed.data);
  };
}

/**
 * Every method `POST {base_url}/` serves: the spec's `chain_*` extensions and ChainLens's own
 * (the records REST answers, from the same services: `chain_getAccountNfts` is
 * `GET /api/v1/account/nfts`), the node's allowlisted reads forwarded as they are,
 * `eth_chainId` from the remembered chain id, and `eth_sendRawTransaction` through the
 * submission service (signature checked before the node sees it). Nothing else exists.
 */
export function jsonRpcMethods(services: Services, chain: ChainClient): ReadonlyMap<string, JsonRpcMethod> {
  const methods = new Map<string, JsonRpcMethod>(NODE_READ_METHODS.map((method) => [method, (params) => forwardRead(chain, method, params)]));
  methods.set('eth_chainId', async () => `0x${(await chain.chainId()).toString(16)}`);
  methods.set(
    'eth_sendRawTransaction',
    withParams(z.tuple([signedTransaction]), async ([raw]) => (await services.submission.send(raw as `0x${string}`)).transactionHash),
  );
  methods.set('chain_getStateRoot', withParams(z.tuple([blockTag]), ([tag]) => services.consensus.stateRoot(tag)));
  methods.set('chain_getValidatorSet', withParams(z.tuple([]), () => services.consensus.validatorSet()));
  methods.set('chain_getFinality', withParams(z.tuple([blockTag]), ([tag]) => services.consensus.finality(tag)));
  // Named for REST's paths; lists page as REST's `page` and `offset` do, newest first where REST's default is.
  methods.set('chain_getAccountTokens', withParams(pagedOf(address), ([owner, p, size]) => services.tokens.holdings(owner, p, size)));
  methods.set('chain_getAccountNfts', withParams(pagedOf(address), ([owner, p, size]) => services.nfts.ofOwner({ owner, page: p, offset: size })));
  methods.set(
    'chain_getAccountTokenTransfers',
    withParams(pagedOf(address), ([owner, p, size]) => services.tokens.accountTransfers({ address: owner, page: p, offset: size, sort: 'desc' })),
  );
  methods.set('chain_getAccountApprovals', withParams(pagedOf(address), ([owner, p, size]) => services.approvals.list({ owner, page: p, offset: size })));
  methods.set('chain_getAccountDelegation', withParams(z.tuple([address]), ([account]) => services.delegations.delegation(account)));
  methods.set('chain_getTokenInventory', withParams(pagedOf(address), ([token, p, size]) => services.nfts.ofCollection({ token, page: p, offset: size })));
  methods.set('chain_getTransactionTokenTransfers', withParams(z.tuple([hash]), ([tx]) => services.tokens.transactionTransfers(tx)));
  methods.set('chain_getTransactionInput', withParams(z.tuple([hash]), ([tx]) => services.decoding.input(tx)));
  methods.set('chain_getTransactionCalls', withParams(z.tuple([hash]), ([tx]) => services.decoding.calls(tx)));
  methods.set('chain_getTransactionBalanceChanges', withParams(z.tuple([hash]), ([tx]) => services.balanceChanges.balanceChanges(tx)));
  methods.set('chain_getTransactionEnvelope', withParams(z.tuple([hash]), ([tx]) => services.envelopes.envelope(tx)));
  return methods;
}
