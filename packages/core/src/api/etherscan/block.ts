import { z } from 'zod';
import { InvalidBlockNumberError } from '../../errors/index.js';
import { withError } from '../../http/index.js';
import type { Services } from '../../explorer-services.js';
import { ok } from './answers.js';
import { EtherscanError, NoBlockTimeError } from './etherscan-errors.js';
import type { EtherscanAction, EtherscanModule } from './module.js';
import { parseParams } from './params.js';

class NoClosestBlockError extends EtherscanError {
  constructor() {
    super('Error! No closest block found');
  }
}

/** `getblockcountdown` of a block already mined: Etherscan's words. */
class BlockPassedError extends EtherscanError {
  constructor() {
    super('Error! Block number already pass');
  }
}

const byTimeParams = z.object({
  timestamp: z.string().regex(/^\d{1,15}$/, 'must be Unix seconds').transform(BigInt),
  closest: z.enum(['before', 'after'], { message: "must be 'before' or 'after'" }).optional().default('before'),
});

/** `blockno`: a decimal block number; malformed or absent → `Error! Invalid block number`. */
const blocknoParams = z.object({
  blockno: withError(
    z
      .string()
      .regex(/^\d{1,19}$/)
      .transform(BigInt),
    () => new InvalidBlockNumberError(),
  ),
});

/** The `block` module: block rewards, countdowns and the indexed block closest to a time. */
export function blockModule(services: Services): EtherscanModule {
  const byTime: EtherscanAction = async (params) => {
    const { timestamp, closest } = parseParams(byTimeParams, params);
    const number = await services.blocks.numberAt(timestamp, closest);
    if (number === null) throw new NoClosestBlockError();
    return ok(number.toString());
  };

  return {
    actions: {
      getblocknobytime: byTime,
      // The name ChainLens first served it under, kept for the scripts that call it.
      getblocknumberbytime: byTime,

      /**
       * What the block paid its miner: its transactions' priority fees (see
       * `BlockFeeRewardRecord`). No chain has had uncles since the merge and the node tells none.
       */
      async getblockreward(params) {
        const { blockno } = parseParams(blocknoParams, params);
        const reward = await services.blocks.feeReward(blockno);
        return ok({
          blockNumber: reward.blockNumber,
          timeStamp: reward.timestamp,
          blockMiner: reward.miner,
          blockReward: reward.priorityFees,
          uncles: [],
          uncleInclusionReward: '0',
        });
      },

      /** Blocks to go until `blockno`, and the seconds that takes at the recent mean block time. */
      async getblockcountdown(params) {
        const { blockno } = parseParams(blocknoParams, params);
        const current = await services.blocks.numberOf('latest');
        if (blockno <= current) throw new BlockPassedError();
        const { blockTime } = await services.networkStats.stats();
        if (blockTime <= 0) throw new NoBlockTimeError();
        const remaining = blockno - current;
        return ok({
          CurrentBlock: current.toString(),
          CountdownBlock: blockno.toString(),
          RemainingBlock: remaining.toString(),
          EstimateTimeInSec: (Number(remaining) * blockTime).toFixed(1),
        });
      },
    },
  };
}
