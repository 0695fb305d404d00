import type { ChainClient } from '../chain/chain-client.js';
import { NodeRpcError } from '../chain/node-rpc-error.js';
import type { z } from 'zod';
import type { gasOracleRecordSchema } from '../records/etherscan-record-schemas.js';

/** Gas prices to offer now, from the node's recent blocks. */
export type GasOracleRecord = z.infer<typeof gasOracleRecordSchema>;

interface FeeHistory {
  oldestBlock: string;
  baseFeePerGas?: string[];
  gasUsedRatio: number[];
  reward?: string[][];
}

/** Blocks the oracle reads (Etherscan's gas oracle shows five ratios). */
const BLOCKS = 5;
const PERCENTILES = [25, 50, 75];

/** Blocks {@link GasOracleService.inclusionShare} looks back over. */
const INCLUSION_BLOCKS = 20;

/** Suggests gas prices from the upstream node's recent blocks. */
export class GasOracleService {
  constructor(private readonly chain: ChainClient) {}

  async oracle(): Promise<GasOracleRecord> {
    let history: FeeHistory;
    try {
      history = await this.chain.request<FeeHistory>('eth_feeHistory', [`0x${BLOCKS.toString(16)}`, 'latest', PERCENTILES]);
    } catch (error) {
      if (error instanceof NodeRpcError) return this.legacy();
      throw error;
    }
    const nextBaseFee = BigInt(history.baseFeePerGas?.at(-1) ?? '0x0');
    if (nextBaseFee === 0n || !history.reward) return this.legacy();
    const tip = (percentile: number) => median(history.reward!.map((rewards) => BigInt(rewards[percentile] ?? '0x0')));
    return {
      lastBlock: (BigInt(history.oldestBlock) + BigInt(history.gasUsedRatio.length) - 1n).toString(),
      safeGasPrice: (nextBaseFee + tip(0)).toString(),
      proposeGasPrice: (nextBaseFee + tip(1)).toString(),
      fastGasPrice: (nextBaseFee + tip(2)).toString(),
      suggestBaseFee: nextBaseFee.toString(),
      gasUsedRatio: history.gasUsedRatio,
    };
  }

  /**
   * The share (0–1) of the newest {@link INCLUSION_BLOCKS} blocks that would have included a
   * transaction paying `gasPrice` Wei per gas: those whose base fee plus the smallest tip they
   * included does not exceed it. Where the node keeps no fee history, `gasPrice` against its
   * `eth_gasPrice`: 1 at or above it, else 0.
   */
  async inclusionShare(gasPrice: bigint): Promise<number> {
    let history: FeeHistory;
    try {
      history = await this.chain.request<FeeHistory>('eth_feeHistory', [`0x${INCLUSION_BLOCKS.toString(16)}`, 'latest', [0]]);
    } catch (error) {
      if (!(error instanceof NodeRpcError)) throw error;
      return gasPrice >= BigInt(await this.chain.request<string>('eth_gasPrice')) ? 1 : 0;
    }
    const blocks = history.gasUsedRatio.length;
    if (blocks === 0) return 0;
    let including = 0;
    for (let i = 0; i < blocks; i++) {
      const floor = BigInt(history.baseFeePerGas?.[i] ?? '0x0') + BigInt(history.reward?.[i]?.[0] ?? '0x0');
      if (gasPrice >= floor) including++;
    }
    return including / blocks;
  }

  /** A chain without base fees: the node's gas price for every speed. */
  private async legacy(): Promise<GasOracleRecord> {
    const [price, block] = await Promise.all([this.chain.request<string>('eth_gasPrice'), this.chain.request<string>('eth_blockNumber')]);
    const gasPrice = BigInt(price).toString();
    return { lastBlock: BigInt(block).toString(), safeGasPrice: gasPrice, proposeGasPrice: gasPrice, fastGasPrice: gasPrice, suggestBaseFee: '0', gasUsedRatio: [] };
  }
}

/** The middle value (the lower of the two middle ones for an even count); 0 for none. */
function median(values: bigint[]): bigint {
  if (values.length === 0) return 0n;
  const sorted = [...values].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return sorted[(sorted.length - 1) >> 1]!;
}
