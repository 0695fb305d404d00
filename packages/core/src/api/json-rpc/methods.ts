import { z } from 'zod';
import type { ChainClient } from '../../chain/chain-client.js';
import type { Services } from '../../explorer-services.js';
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
 * Every method `POST {base_url}/` serves: the spec's `chain_*` extensions (the records REST
 * answers, from the same services), the node's allowlisted reads forwarded as they are,
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
  return methods;
}
