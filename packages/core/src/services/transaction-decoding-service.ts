import type { CallAbiSource, DecodedParameter } from '../abi/index.js';
import { TracingUnavailableError, TransactionNotFoundError } from '../errors/index.js';
import type { Hex, TransactionReader, VerificationStorage } from '../storage/index.js';
import { calleesOf, decodeCallTree, decodeFrameCall, implementationsOf, VerifiedAbis, type DecodedCallFrameRecord } from './call-decoding.js';
import type { DelegationService } from './delegation-service.js';
import type { TraceService } from './trace-service.js';
import type { z } from 'zod';
import type { decodedInputRecordSchema } from '../records/transaction-insight-schemas.js';

/** A transaction's input decoded as a function call; every field but `selector` is `null` where no ABI describes it. */
export type DecodedInputRecord = z.infer<typeof decodedInputRecordSchema>;

/**
 * What a transaction asked for and what each of its calls did, decoded: a verified ABI first
 * (the callee's, for a proxy the implementation's it delegated to, seen in the call tree, for
 * an account that delegates by EIP-7702 its target's), then the table of common functions.
 */
export class TransactionDecodingService {
  constructor(
    private readonly storage: TransactionReader & VerificationStorage,
    private readonly traces: TraceService,
    private readonly delegations: DelegationService,
  ) {}

  /** The transaction's input decoded. A proxy's implementation is found in the call tree, read only when the proxy's own ABI and the common table do not decode it. */
  async input(hash: Hex): Promise<DecodedInputRecord> {
    const tx = await this.storage.getTransaction(hash);
    if (!tx) throw new TransactionNotFoundError();
    const selector = tx.to !== null && tx.input.length >= 10 ? tx.input.slice(0, 10).toLowerCase() : null;
    const frame = { type: 'CALL', to: tx.to, input: tx.input, output: '0x', error: 'not decoded' };
    let abis = tx.to === null ? new VerifiedAbis([]) : await this.abisOf([tx.to], tx.blockNumber);
    let { call } = selector === null ? { call: null } : decodeFrameCall(frame, [], abis);
    if (selector !== null && call === null) {
      const implementations = await this.implementations(hash);
      if (implementations.length > 0) {
        abis = await this.abisOf([tx.to as Hex, ...implementations], tx.blockNumber);
        call = decodeFrameCall(frame, implementations, abis).call;
      }
    }
    return {
      selector,
      contractName: abis.of(tx.to)?.name ?? null,
      functionName: call?.functionName ?? null,
      signature: call?.signature ?? null,
      source: call?.source ?? null,
      parameters: call?.parameters ?? null,
    };
  }

  /** The call tree (see `TraceService.trace`) with every call, result and failure decoded where an ABI is known. */
  async calls(hash: Hex): Promise<DecodedCallFrameRecord> {
    const [tree, tx] = await Promise.all([this.traces.trace(hash), this.storage.getTransaction(hash)]);
    if (!tx) throw new TransactionNotFoundError();
    return decodeCallTree(tree, await this.abisOf(calleesOf(tree), tx.blockNumber));
  }

  /**
   * The verified ABIs of `callees` and, for those that are no verified contract, of the
   * contracts they delegated to by EIP-7702 at the transaction's block (one code read each).
   */
  private async abisOf(callees: Hex[], blockNumber: bigint): Promise<VerifiedAbis> {
    const verified = await this.storage.getVerifiedContracts(callees);
    const known = new Set(verified.map((record) => record.address.toLowerCase()));
    const delegations = await this.delegations.targetsAt(callees.filter((callee) => !known.has(callee.toLowerCase())), blockNumber);
    const targets = [...new Set(delegations.values())];
    return new VerifiedAbis(targets.length === 0 ? verified : [...verified, ...(await this.storage.getVerifiedContracts(targets))], delegations);
  }

  /** The contracts the top call delegated the same input to; none where the node does not trace. */
  private async implementations(hash: Hex): Promise<Hex[]> {
    try {
      return implementationsOf(await this.traces.trace(hash)) as Hex[];
    } catch (error) {
      if (error instanceof TracingUnavailableError) return [];
      throw error;
    }
  }
}
