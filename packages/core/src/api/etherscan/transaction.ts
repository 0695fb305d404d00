import { z } from 'zod';
import { hashSchema } from '../../values/hex.js';
import type { Services } from '../../explorer-services.js';
import { ok } from './answers.js';
import type { EtherscanModule } from './module.js';
import { parseParams } from './params.js';

const txhashParams = z.object({ txhash: hashSchema });

/** The `transaction` module: whether a mined transaction failed, and why. */
export function transactionModule(services: Services): EtherscanModule {
  return {
    actions: {
      async getstatus(params) {
        const { txhash } = parseParams(txhashParams, params);
        const { success, revertReason } = await services.transactions.info(txhash);
        return ok({ isError: success ? '0' : '1', errDescription: revertReason ?? '' });
      },

      async gettxreceiptstatus(params) {
        const { txhash } = parseParams(txhashParams, params);
        return ok({ status: (await services.transactions.get(txhash)).txreceipt_status });
      },
    },
  };
}
