import type { ChainClient } from '../chain/chain-client.js';
import type { BlockReader } from '../storage/index.js';
import { CliqueConsensusSource } from './clique-consensus-source.js';
import { CometBftConsensusSource } from './cometbft-consensus-source.js';
import { CometBftRpc } from './cometbft-rpc.js';
import type { ConsensusSource } from './consensus-source.js';
import { EvmConsensusSource } from './evm-consensus-source.js';
import { EvmFinality } from './evm-finality.js';

/** What {@link createConsensusSource} builds from: the explorer's options it reads. */
export interface ConsensusSourceOptions {
  /** The `consensus` option: which source, and its own settings. */
  consensus: { type: 'evm' } | { type: 'clique'; epochBlocks?: number | undefined } | { type: 'cometbft'; cometbftUrl: string };
  requiredConfirmations: number;
  /** Timeout of each call to the CometBFT RPC (`http.upstreamTimeoutMs`). */
  upstreamTimeoutMs: number;
}

/** The consensus source `options.consensus` names. */
export function createConsensusSource(options: ConsensusSourceOptions, storage: BlockReader, chain: ChainClient): ConsensusSource {
  const { consensus, requiredConfirmations, upstreamTimeoutMs } = options;
  const evm = () => new EvmConsensusSource(storage, new EvmFinality(chain, { requiredConfirmations, cacheMs: 1_000 }), requiredConfirmations);
  switch (consensus.type) {
    case 'evm':
      return evm();
    case 'clique':
      return new CliqueConsensusSource(chain, evm(), { epochBlocks: consensus.epochBlocks });
    case 'cometbft':
      return new CometBftConsensusSource(new CometBftRpc(consensus.cometbftUrl, upstreamTimeoutMs));
  }
}
