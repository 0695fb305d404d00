export type { ConsensusSource, SourceConsensus, SourceFinality, SourceValidator } from './consensus-source.js';
export { EvmConsensusSource } from './evm-consensus-source.js';
export { EvmFinality, type EvmFinalityOptions } from './evm-finality.js';
export { CliqueConsensusSource, type CliqueConsensusSourceOptions } from './clique-consensus-source.js';
export { CLIQUE_SEAL_BYTES, cliqueSeal, cliqueSealHash, MissingCliqueSealError, recoverCliqueSigner, type CliqueHeader } from './clique-seal.js';
export { CometBftConsensusSource } from './cometbft-consensus-source.js';
export { CometBftRpc, CometBftRpcError } from './cometbft-rpc.js';
export type { ConsensusInfoRecord, FinalityStatusRecord, ValidatorRecord, ValidatorSetRecord } from './consensus-records.js';
