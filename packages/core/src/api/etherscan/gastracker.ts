import { formatGwei } from 'viem';
import type { Services } from '../../services/index.js';
import { ok } from './answers.js';
import type { EtherscanModule } from './module.js';

/** Wei (decimal) as Etherscan's gas oracle writes prices: Gwei, decimals as needed. */
function gwei(wei: string): string {
  return formatGwei(BigInt(wei));
}

/** The `gastracker` module: gas prices to offer now, from the node's recent blocks. */
export function gastrackerModule(services: Services): EtherscanModule {
  return {
    actions: {
      async gasoracle() {
        const oracle = await services.gasOracle.oracle();
        return ok({
          LastBlock: oracle.lastBlock,
          SafeGasPrice: gwei(oracle.safeGasPrice),
          ProposeGasPrice: gwei(oracle.proposeGasPrice),
          FastGasPrice: gwei(oracle.fastGasPrice),
          suggestBaseFee: gwei(oracle.suggestBaseFee),
          gasUsedRatio: oracle.gasUsedRatio.join(','),
        });
      },
    },
  };
}
