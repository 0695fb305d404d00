import { z } from 'zod';
import type { Services } from '../../services/index.js';
import { ok } from './answers.js';
import { EtherscanError } from './errors.js';
import type { EtherscanModule } from './module.js';
import { parseParams } from './params.js';

class NoClosestBlockError extends EtherscanError {
  constructor() {
    super('Error! No closest block found');
  }
}

const byTimeParams = z.object({
  timestamp: z.string().regex(/^\d{1,15}$/, 'must be Unix seconds').transform(BigInt),
  closest: z.enum(['before', 'after'], { message: "must be 'before' or 'after'" }).optional().default('before'),
});

/** The `block` module: the indexed block closest to a time. */
export function blockModule(services: Services): EtherscanModule {
  return {
    actions: {
      async getblocknumberbytime(params) {
        const { timestamp, closest } = parseParams(byTimeParams, params);
        const number = await services.blocks.numberAt(timestamp, closest);
        if (number === null) throw new NoClosestBlockError();
        return ok(number.toString());
      },
    },
  };
}
