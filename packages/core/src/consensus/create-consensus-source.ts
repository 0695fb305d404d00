import type { ChainClient } from '../chain/chain-client.js';
import type { ResolvedConfig } from '../config.js';
import type { Storage } from '../storage/index.js';
import { CliqueConsensusSource } from './clique-consensus-source.js';
import { CometBftConsensusSource } from './cometbft-consensus-source.js';
import { CometBftRpc } from './cometbft-rpc.js';
import type { ConsensusSource } from './consensus-source.js';
import { EvmConsensusSource } from './evm-consensus-source.js';
import { EvmFinality } from './evm-finality.js';

/** The consensus source `config.consensus` names. */
export function createConsensusSource(config: ResolvedConfig, storage: Storage, chain: ChainClient): ConsensusSource {
  const { consensus, requiredConfirmations } = config;
  const evm = () => new EvmConsensusSource(storage, new EvmFinality(chain, { requiredConfirmations, cacheMs: 1_000 }), requiredConfirmations);
  switch (consensus.type) {
    case 'evm':
      return evm();
    case 'clique':
      return new CliqueConsensusSource(chain, evm(), { epochBlocks: consensus.epochBlocks });
    case 'cometbft':
      return new CometBftConsensusSource(new CometBftRpc(consensus.cometbftUrl, config.http.upstreamTimeoutMs));
  }
}
