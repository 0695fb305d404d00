import type { RpcCallFrame } from '../chain/rpc-types.js';
import type { Hex, StoredContractCreation, StoredTransaction } from '../storage/index.js';

const CREATE_FRAMES = new Set(['CREATE', 'CREATE2']);

/**
 * The contracts a block's transactions created: each successful transaction's own creation (its
 * receipt's `contractAddress`) and, where `traces` (the node's `callTracer` frames, one per
 * transaction in order) are given, every CREATE/CREATE2 inside it in call order. A frame that
 * failed takes its whole subtree with it, and a failed transaction created nothing.
 */
export function contractCreationsOf(transactions: readonly StoredTransaction[], traces: readonly (RpcCallFrame | null)[] | null): StoredContractCreation[] {
  const creations: StoredContractCreation[] = [];
  transactions.forEach((tx, i) => {
    if (tx.status !== 1) return;
    const at = { transactionHash: tx.hash, blockNumber: tx.blockNumber, transactionIndex: tx.transactionIndex };
    if (tx.contractAddress !== null) creations.push({ address: tx.contractAddress, creator: tx.from, ...at, traceIndex: 0 });
    let traceIndex = 0;
    const walk = (frames: readonly RpcCallFrame[] | undefined) => {
      for (const frame of frames ?? []) {
        if (frame.error !== undefined) continue;
        if (CREATE_FRAMES.has(frame.type) && frame.to) {
          creations.push({ address: lower(frame.to), creator: lower(frame.from), ...at, traceIndex: ++traceIndex });
        }
        walk(frame.calls);
      }
    };
    walk(traces?.[i]?.calls);
  });
  return creations;
}

/**
 * Whether any of the transactions may have created a contract inside it: one that succeeded and
 * ran code. A plain value transfer (no input, exactly the 21,000 gas of a transfer to an account
 * without code) cannot; every other successful transaction may. Blocks of plain transfers so
 * need no traces, which cost the node a re-execution of the block.
 */
export function mayCreateInside(transactions: readonly StoredTransaction[]): boolean {
  return transactions.some((tx) => tx.status === 1 && !(tx.to !== null && tx.input === '0x' && tx.gasUsed === PLAIN_TRANSFER_GAS));
}

const PLAIN_TRANSFER_GAS = 21_000n;

function lower(address: string): Hex {
  return address.toLowerCase() as Hex;
}
