import { formatGwei } from 'viem';
import { z } from 'zod';
import type { Services } from '../../explorer-services.js';
import { ok } from './answers.js';
import { EtherscanError, NoBlockTimeError } from './etherscan-errors.js';
import type { EtherscanModule } from './module.js';
import { parseParams } from './params.js';

/** Wei (decimal) as Etherscan's gas oracle writes prices: Gwei, decimals as needed. */
function gwei(wei: string): string {
  return formatGwei(BigInt(wei));
}

class NotIncludedError extends EtherscanError {
  constructor() {
    super('Error! No recent block would have included a transaction at this gas price');
  }
}

/** `gasprice` in Wei, as Etherscan takes it. */
const estimateParams = z.object({ gasprice: z.string().regex(/^\d{1,30}$/, 'must be a whole number of Wei').transform(BigInt) });

/** The `gastracker` module: gas prices to offer now, and how long a price waits, from the node's recent blocks. */
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

      /**
       * Seconds until a transaction paying `gasprice` is mined: the mean block time over the share
       * of recent blocks that would have included it (see `GasOracleService.inclusionShare`).
       */
      async gasestimate(params) {
        const { gasprice } = parseParams(estimateParams, params);
        const [share, { blockTime }] = await Promise.all([services.gasOracle.inclusionShare(gasprice), services.networkStats.stats()]);
        if (share === 0) throw new NotIncludedError();
        if (blockTime <= 0) throw new NoBlockTimeError();
        return ok(String(Math.round(blockTime / share)));
      },
    },
  };
}
