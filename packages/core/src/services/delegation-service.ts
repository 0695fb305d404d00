import type { ChainClient } from '../chain/chain-client.js';
import type { IndexedHead } from '../events/indexed-head.js';
import type { Hex } from '../storage/index.js';
import { labelOf, type LabelLookup } from './address-labels.js';
import type { z } from 'zod';
import type { delegationRecordSchema } from '../records/transaction-insight-schemas.js';

/** Whether an account delegates its code (EIP-7702), as of the indexed head. */
export type DelegationRecord = z.infer<typeof delegationRecordSchema>;

/** EIP-7702's delegation designator: `0xef0100` then the target's address is the account's whole code. */
const DESIGNATOR = /^0xef0100([0-9a-f]{40})$/;

/** EIP-7702 delegations of accounts, from the code the node has for them. */
export class DelegationService {
  constructor(
    private readonly chain: ChainClient,
    private readonly head: IndexedHead,
    private readonly labels: LabelLookup,
  ) {}

  async delegation(address: Hex): Promise<DelegationRecord> {
    const cursor = await this.head.current();
    const delegatedTo = await this.targetAt(address, cursor ? `0x${cursor.number.toString(16)}` : 'latest');
    const labels = await this.labels.labelsOf(delegatedTo === null ? [] : [delegatedTo as Hex]);
    return { address, delegatedTo, delegatedToLabel: labelOf(labels, delegatedTo), blockNumber: cursor?.number.toString() ?? null };
  }

  /** The delegation targets of those of `addresses` that delegate at block `blockNumber`, by address. */
  async targetsAt(addresses: readonly Hex[], blockNumber: bigint): Promise<Map<Hex, Hex>> {
    const tag = `0x${blockNumber.toString(16)}`;
    const targets = await Promise.all(addresses.map((address) => this.targetAt(address, tag)));
    return new Map(addresses.flatMap((address, index) => (targets[index] ? [[address, targets[index]] as const] : [])));
  }

  private async targetAt(address: Hex, blockTag: string): Promise<Hex | null> {
    const code = await this.chain.request<string>('eth_getCode', [address, blockTag]);
    const target = DESIGNATOR.exec(code.toLowerCase())?.[1];
    return target === undefined ? null : `0x${target}`;
  }
}
