/** The node's JSON-RPC shapes ChainLens reads (hex quantities, as on the wire). */

export interface RpcBlock<TTx = RpcTransaction> {
  number: string;
  hash: string;
  parentHash: string;
  timestamp: string;
  miner: string;
  gasUsed: string;
  gasLimit: string;
  baseFeePerGas?: string | null;
  difficulty?: string | null;
  size?: string | null;
  stateRoot: string;
  transactionsRoot: string;
  receiptsRoot: string;
  extraData: string;
  transactions: TTx[];
}

export interface RpcTransaction {
  hash: string;
  blockNumber: string | null;
  blockHash: string | null;
  transactionIndex: string | null;
  from: string;
  to: string | null;
  value: string;
  gas: string;
  gasPrice?: string | null;
  maxFeePerGas?: string | null;
  maxPriorityFeePerGas?: string | null;
  nonce: string;
  input: string;
  type?: string | null;
}

export interface RpcLog {
  address: string;
  topics: string[];
  data: string;
  blockNumber: string;
  blockHash: string;
  transactionHash: string;
  transactionIndex: string;
  logIndex: string;
  removed?: boolean;
}

export interface RpcReceipt {
  transactionHash: string;
  transactionIndex: string;
  blockHash: string;
  blockNumber: string;
  from: string;
  to: string | null;
  cumulativeGasUsed: string;
  gasUsed: string;
  effectiveGasPrice?: string | null;
  contractAddress: string | null;
  logs: RpcLog[];
  logsBloom: string;
  status?: string | null;
}

/** One frame of a `callTracer` trace (geth, anvil, Erigon's debug API). */
export interface RpcCallFrame {
  /** `CALL`, `STATICCALL`, `DELEGATECALL`, `CREATE`, `CREATE2`, `SELFDESTRUCT`, … */
  type: string;
  from: string;
  /** The callee, or the created contract's address. */
  to?: string;
  /** Wei moved, hex. */
  value?: string;
  /** Gas given to the frame and used by it, hex. */
  gas?: string;
  gasUsed?: string;
  /** Call data, or the init code of a creation. */
  input?: string;
  /** Return data, or the code a creation deployed. */
  output?: string;
  /** Set when the frame failed: its effects, and its subframes', were undone. */
  error?: string;
  calls?: RpcCallFrame[];
}

/** One entry of `debug_traceBlockByHash` (or `…ByNumber`) with the call tracer. */
export interface RpcBlockTrace {
  txHash?: string;
  result: RpcCallFrame;
}

/**
 * One entry of OpenEthereum's flat traces (`trace_transaction`, `trace_block`: Erigon,
 * Nethermind, Reth, Besu, anvil); quantities in hex.
 */
export interface FlatTrace {
  type: 'call' | 'create' | 'suicide' | 'reward' | string;
  action: {
    callType?: string;
    creationMethod?: string;
    from?: string;
    to?: string;
    value?: string;
    gas?: string;
    input?: string;
    init?: string;
    address?: string;
    refundAddress?: string;
    balance?: string;
  };
  result?: { gasUsed?: string; output?: string; address?: string; code?: string } | null;
  error?: string;
  /** Child indexes from the top call down; `[]` for the top call. */
  traceAddress: number[];
  /** Where the trace belongs (absent on a block reward). */
  blockHash?: string;
  transactionHash?: string | null;
  transactionPosition?: number | null;
}
