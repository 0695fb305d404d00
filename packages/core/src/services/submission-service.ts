import { formatEther, parseTransaction, recoverTransactionAddress, type TransactionSerialized } from 'viem';
import type { ChainClient } from '../chain/chain-client.js';
import { NodeRpcError } from '../chain/node-rpc-error.js';
import { decodeRevertReason } from '../chain/revert-reason.js';
import { ExecutionFailedError, InvalidRequestError } from '../errors/index.js';
import type { PendingTracker } from '../indexer/pending-tracker.js';
import type { Hex } from '../storage/index.js';
import { nowSeconds } from '../values/time.js';
import type { z } from 'zod';
import type { gasEstimateRecordSchema } from '../records/record-schemas.js';

/** Gas estimate record (spec: Gas estimate). */
export type GasEstimateRecord = z.infer<typeof gasEstimateRecordSchema>;

/** A call to estimate: at least `to` or `data`. */
export interface EstimateGasInput {
  from?: Hex;
  to?: Hex;
  value?: bigint;
  data?: Hex;
}

/** JSON-RPC error code nodes use for a reverted call (EIP-1474 "execution error"). */
const EXECUTION_ERROR = 3;

/** Forwards signed transactions and estimates gas through the upstream node. */
export class SubmissionService {
  constructor(
    private readonly chain: ChainClient,
    private readonly pending: PendingTracker,
  ) {}

  /**
   * Checks that `raw` is a well-formed, signed transaction whose signature recovers a sender,
   * then forwards it. Malformed or unsigned payloads never reach the node.
   */
  async send(raw: Hex): Promise<{ transactionHash: string }> {
    let parsed: ReturnType<typeof parseTransaction>;
    let from: Hex;
    try {
      parsed = parseTransaction(raw as TransactionSerialized);
    } catch {
      throw new InvalidRequestError('signedTransaction', 'not a valid serialized transaction');
    }
    if (parsed.r === undefined || parsed.s === undefined) {
      throw new InvalidRequestError('signedTransaction', 'transaction is not signed');
    }
    try {
      from = (await recoverTransactionAddress({ serializedTransaction: raw as TransactionSerialized })).toLowerCase() as Hex;
    } catch {
      throw new InvalidRequestError('signedTransaction', 'signature does not recover a sender');
    }
    let hash: string;
    try {
      hash = await this.chain.request<string>('eth_sendRawTransaction', [raw]);
    } catch (error) {
      throw this.nodeRefusal(error, 'signedTransaction');
    }
    const transactionHash = hash.toLowerCase() as Hex;
    this.pending.remember({
      hash: transactionHash,
      from,
      to: parsed.to ? (parsed.to.toLowerCase() as Hex) : null,
      value: parsed.value ?? 0n,
      gasPrice: parsed.gasPrice ?? parsed.maxFeePerGas ?? 0n,
      gas: parsed.gas ?? 0n,
      nonce: BigInt(parsed.nonce ?? 0),
      submittedAt: nowSeconds(),
    });
    return { transactionHash };
  }

  async estimateGas(input: EstimateGasInput): Promise<GasEstimateRecord> {
    const call: Record<string, string> = {};
    if (input.from) call.from = input.from;
    if (input.to) call.to = input.to;
    if (input.value !== undefined) call.value = `0x${input.value.toString(16)}`;
    if (input.data) call.data = input.data;
    let gasHex: string;
    let priceHex: string;
    try {
      [gasHex, priceHex] = await Promise.all([
        this.chain.request<string>('eth_estimateGas', [call]),
        this.chain.request<string>('eth_gasPrice'),
      ]);
    } catch (error) {
      throw this.nodeRefusal(error, 'body');
    }
    const gas = BigInt(gasHex);
    const price = BigInt(priceHex);
    const cost = gas * price;
    return {
      gasEstimate: gas.toString(),
      gasPrice: price.toString(),
      estimatedCost: cost.toString(),
      estimatedCostNative: formatEther(cost),
    };
  }

  /** A node's refusal as the API answers it: reverts as execution failures, the rest as bad input. */
  private nodeRefusal(error: unknown, field: string): unknown {
    if (!(error instanceof NodeRpcError)) return error;
    if (error.code === EXECUTION_ERROR || error.data !== undefined || /revert/i.test(error.message)) {
      return new ExecutionFailedError(decodeRevertReason(error.data, error.message));
    }
    return new InvalidRequestError(field, error.message);
  }
}
