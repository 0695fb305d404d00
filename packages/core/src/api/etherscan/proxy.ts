import { z } from 'zod';
import type { ChainClient } from '../../chain/chain-client.js';
import { InvalidBlockNumberError } from '../../errors/index.js';
import { withError } from '../../http/index.js';
import { addressSchema, hashSchema, hexDataSchema, optionalAddressSchema } from '../../values/hex.js';
import type { Services } from '../../explorer-services.js';
import { JSON_RPC_CODES, jsonRpcErrorOf, type JsonRpcErrorObject } from '../json-rpc/json-rpc-errors.js';
import { forwardRead, type NodeReadMethod } from '../json-rpc/node-reads.js';
import type { EtherscanModule } from './module.js';
import { blockTagParam, parseParams, type EtherscanParams } from './params.js';

/** The JSON-RPC 2.0 body the `proxy` module answers, as Etherscan does (ethers checks `jsonrpc`). */
type JsonRpcAnswer =
  | { jsonrpc: '2.0'; id: number; result: unknown }
  | { jsonrpc: '2.0'; id: number; error: JsonRpcErrorObject };

/** A quantity in hex or decimal, as the node wants it: hex. */
const quantity = z
  .string()
  .regex(/^(0x[0-9a-fA-F]{1,64}|\d{1,78})$/, 'must be a hex or decimal quantity')
  .transform((value) => `0x${BigInt(value).toString(16)}`);

/** A block tag as the node wants it: a named tag, or a number in hex. */
const nodeTag = withError(
  blockTagParam.transform((tag) => (/^\d+$/.test(tag) ? `0x${BigInt(tag).toString(16)}` : tag.toLowerCase())),
  () => new InvalidBlockNumberError(),
);

/** The fields of a call or gas estimate (`gaslimit` is ethers' name for `gas`). */
const callShape = {
  from: optionalAddressSchema,
  to: optionalAddressSchema,
  data: hexDataSchema.optional(),
  value: quantity.optional(),
  gas: quantity.optional(),
  gaslimit: quantity.optional(),
  gasprice: quantity.optional(),
  maxfeepergas: quantity.optional(),
  maxpriorityfeepergas: quantity.optional(),
};

function callObject(call: z.output<z.ZodObject<typeof callShape>>): Record<string, string> {
  const fields = {
    from: call.from,
    to: call.to,
    data: call.data,
    value: call.value,
    gas: call.gas ?? call.gaslimit,
    gasPrice: call.gasprice,
    maxFeePerGas: call.maxfeepergas,
    maxPriorityFeePerGas: call.maxpriorityfeepergas,
  };
  return Object.fromEntries(Object.entries(fields).filter((entry): entry is [string, string] => entry[1] !== undefined));
}

/** How one action becomes one node request: its parameters, validated, to the method's params. */
interface ReadAction {
  params: z.ZodType<Record<string, unknown>, Record<string, unknown>>;
  request: (params: Record<string, unknown>) => unknown[];
}

/** A {@link ReadAction} whose `request` sees its schema's output type. */
function read<S extends z.ZodObject>(params: S, request: (params: z.output<S>) => unknown[]): ReadAction {
  return { params, request: request as ReadAction['request'] };
}

/**
 * The node methods the proxy forwards, Etherscan's list: reads of the shared allowlist only.
 * Nothing else reaches the node through it (`eth_sendRawTransaction` goes through the submission
 * service).
 */
const READS: Readonly<Partial<Record<NodeReadMethod, ReadAction>>> = {
  eth_blockNumber: read(z.object({}), () => []),
  eth_getBlockByNumber: read(z.object({ tag: nodeTag, boolean: z.enum(['true', 'false']).optional() }), ({ tag, boolean }) => [tag, boolean === 'true']),
  // Post-merge and dev chains have no uncles: the node answers `null`, as Etherscan does.
  eth_getUncleByBlockNumberAndIndex: read(z.object({ tag: nodeTag, index: quantity }), ({ tag, index }) => [tag, index]),
  eth_getBlockTransactionCountByNumber: read(z.object({ tag: nodeTag }), ({ tag }) => [tag]),
  eth_getTransactionByHash: read(z.object({ txhash: hashSchema }), ({ txhash }) => [txhash]),
  eth_getTransactionByBlockNumberAndIndex: read(z.object({ tag: nodeTag, index: quantity }), ({ tag, index }) => [tag, index]),
  eth_getTransactionCount: read(z.object({ address: addressSchema, tag: nodeTag }), ({ address, tag }) => [address, tag]),
  eth_getTransactionReceipt: read(z.object({ txhash: hashSchema }), ({ txhash }) => [txhash]),
  eth_call: read(z.object({ ...callShape, tag: nodeTag }), ({ tag, ...call }) => [callObject(call), tag]),
  eth_getCode: read(z.object({ address: addressSchema, tag: nodeTag }), ({ address, tag }) => [address, tag]),
  eth_getStorageAt: read(z.object({ address: addressSchema, position: quantity, tag: nodeTag }), ({ address, position, tag }) => [address, position, tag]),
  eth_gasPrice: read(z.object({}), () => []),
  eth_estimateGas: read(z.object(callShape), (call) => [callObject(call)]),
};

const sendParams = z.object({ hex: hexDataSchema });

/** The request's numeric `id`, echoed like a JSON-RPC id (default 1, as Etherscan answers). */
function idOf(params: EtherscanParams): number {
  return params.id !== undefined && /^\d{1,15}$/.test(params.id) ? Number(params.id) : 1;
}

/** A failure as a JSON-RPC error (the node's own as it is, ours with the nearest code); anything unexpected is rethrown. */
function rpcError(error: unknown): JsonRpcErrorObject {
  const known = jsonRpcErrorOf(error);
  if (known === null) throw error;
  return known;
}

/**
 * The `proxy` module: Etherscan's `eth_*` actions, forwarded to the upstream node and answered
 * as JSON-RPC bodies (`{jsonrpc, id, result}` or `{jsonrpc, id, error}`), so ethers'
 * `EtherscanProvider` works against ChainLens.
 */
export function proxyModule(services: Services, chain: ChainClient): EtherscanModule {
  async function answer(params: EtherscanParams, run: () => Promise<unknown>): Promise<JsonRpcAnswer> {
    const id = idOf(params);
    try {
      return { jsonrpc: '2.0', id, result: await run() };
    } catch (error) {
      return { jsonrpc: '2.0', id, error: rpcError(error) };
    }
  }

  const actions = Object.fromEntries(
    (Object.entries(READS) as [NodeReadMethod, ReadAction][]).map(([method, action]) => [
      method,
      (params: EtherscanParams) => answer(params, () => forwardRead(chain, method, action.request(parseParams(action.params, params)))),
    ]),
  );
  return {
    actions: {
      ...actions,
      eth_sendRawTransaction: (params) =>
        answer(params, async () => (await services.submission.send(parseParams(sendParams, params).hex)).transactionHash),
    },
    unknownAction: (action, params) => ({ jsonrpc: '2.0', id: idOf(params), error: { code: JSON_RPC_CODES.METHOD_NOT_FOUND, message: `the method ${action} does not exist/is not available` } }),
  };
}
