import { TracingUnavailableError, TransactionNotFoundError } from '../errors/index.js';
import type { BlockReader, Hex, StoredTransaction, TransactionReader } from '../storage/index.js';
import type { TransactionTraceRecord } from './call-trace.js';
import { labelOf, type LabelLookup } from './address-labels.js';
import type { TokenService } from './token-service.js';
import type { TraceService } from './trace-service.js';
import type { TransactionEnvelopeService } from './transaction-envelope-service.js';
import type { z } from 'zod';
import type { balanceChangesRecordSchema } from '../records/transaction-insight-schemas.js';

/** What a transaction moved, per address: ether (values of the calls that took effect, the fee) and tokens (its transfer events). */
export type BalanceChangesRecord = z.infer<typeof balanceChangesRecordSchema>;

const ZERO_ADDRESS = '0x0000000000000000000000000000000000000000';

/** Call types whose value moves from caller to callee (a delegate call or call-code keeps it where it is). */
const VALUE_MOVING = new Set(['CALL', 'CREATE', 'CREATE2', 'SELFDESTRUCT']);

/** Sums signed amounts per key, keeping the order keys were first seen. */
class Ledger<K> {
  readonly entries = new Map<string, { key: K; change: bigint }>();

  add(id: string, key: K, change: bigint): void {
    const entry = this.entries.get(id);
    if (entry) entry.change += change;
    else this.entries.set(id, { key, change });
  }

  /** The keys whose changes do not cancel out. */
  nonZero(): { key: K; change: bigint }[] {
    return [...this.entries.values()].filter((entry) => entry.change !== 0n);
  }
}

/** Balance changes per address of a mined transaction, ether and tokens. */
export class BalanceChangeService {
  constructor(
    private readonly storage: BlockReader & TransactionReader,
    private readonly traces: TraceService,
    private readonly tokens: TokenService,
    private readonly envelopes: TransactionEnvelopeService,
    private readonly labels: LabelLookup,
  ) {}

  async balanceChanges(hash: Hex): Promise<BalanceChangesRecord> {
    const tx = await this.storage.getTransaction(hash);
    if (!tx) throw new TransactionNotFoundError();
    const [ether, transfers] = await Promise.all([this.etherLedger(tx), this.tokens.transactionTransfers(hash)]);
    const tokens = new Ledger<{ address: string; transfer: (typeof transfers)[number] }>();
    for (const transfer of transfers) {
      const amount = BigInt(transfer.value);
      const id = `${transfer.token}:${transfer.tokenId ?? ''}`;
      if (transfer.from !== ZERO_ADDRESS) tokens.add(`${transfer.from}:${id}`, { address: transfer.from, transfer }, -amount);
      if (transfer.to !== ZERO_ADDRESS) tokens.add(`${transfer.to}:${id}`, { address: transfer.to, transfer }, amount);
    }
    const tokenRows = tokens.nonZero();
    const etherRows = ether?.nonZero() ?? null;
    const labels = await this.labels.labelsOf([...tokenRows.map((row) => row.key.address), ...(etherRows ?? []).map((row) => row.key)] as Hex[]);
    return {
      hash: tx.hash,
      ether: etherRows && etherRows.map(({ key, change }) => ({ address: key, label: labelOf(labels, key), change: change.toString() })),
      tokens: tokenRows.map(({ key: { address, transfer }, change }) => ({
        address,
        label: labelOf(labels, address),
        token: transfer.token,
        standard: transfer.standard,
        tokenName: transfer.tokenName,
        tokenSymbol: transfer.tokenSymbol,
        tokenDecimal: transfer.tokenDecimal,
        tokenId: transfer.tokenId,
        change: change.toString(),
      })),
    };
  }

  /** The ether ledger of the transaction, sender first; `null` where the node does not trace. */
  private async etherLedger(tx: StoredTransaction): Promise<Ledger<string> | null> {
    let tree: TransactionTraceRecord;
    try {
      tree = await this.traces.trace(tx.hash);
    } catch (error) {
      if (error instanceof TracingUnavailableError) return null;
      throw error;
    }
    const [block, envelope] = await Promise.all([this.storage.getBlockByNumber(tx.blockNumber), tx.type === 3 ? this.envelopes.envelope(tx.hash) : null]);
    const ledger = new Ledger<string>();
    const blobFee = envelope?.blobGasUsed != null && envelope.blobGasPrice != null ? BigInt(envelope.blobGasUsed) * BigInt(envelope.blobGasPrice) : 0n;
    ledger.add(tx.from, tx.from, -(tx.gasUsed * tx.effectiveGasPrice) - blobFee);
    moveValues(tree, ledger);
    if (block && block.hash === tx.blockHash) {
      const tip = tx.effectiveGasPrice - (block.baseFeePerGas ?? 0n);
      ledger.add(block.miner, block.miner, tx.gasUsed * tip);
    }
    return ledger;
  }
}

/** Adds the value of every call of `frame` that took effect (a failed frame's calls were undone with it). */
function moveValues(frame: TransactionTraceRecord, ledger: Ledger<string>): void {
  if (frame.error !== null) return;
  const value = BigInt(frame.value);
  if (value !== 0n && frame.to !== null && VALUE_MOVING.has(frame.type)) {
    ledger.add(frame.from, frame.from, -value);
    ledger.add(frame.to, frame.to, value);
  }
  for (const call of frame.calls) moveValues(call, ledger);
}
