import { z } from 'zod';
import { withError } from '../../http/index.js';
import { optionalAddressSchema } from '../../values/hex.js';
import type { Services } from '../../explorer-services.js';
import type { Hex } from '../../storage/index.js';
import type { JsonArrayText } from '../../records/json-array-text.js';
import { logsScope } from '../../services/block-lineage.js';
import { list, type EtherscanAnswer } from './answers.js';
import { EtherscanError } from './etherscan-errors.js';
import type { EtherscanModule } from './module.js';
import { blockBoundParam, checkWindow, pageNumber, pagingShape, parseParams, type EtherscanParams } from './params.js';
import { eventLog } from './records.js';

/** Logs per page at most, and per page when `offset` is absent, as Etherscan answers getLogs. */
const MAX_LOGS = 1_000;

/** Neither a contract nor a topic: the search would be every log of the chain. */
class LogsWithoutFilterError extends EtherscanError {
  constructor() {
    super('Error! Missing address or topic: getLogs needs an address, a topic0 to topic3, or both');
  }
}

const topic = withError(
  z
    .string()
    .regex(/^0x[0-9a-fA-F]{64}$/)
    .transform((value) => value.toLowerCase() as Hex)
    .optional(),
  () => new EtherscanError('Error! Invalid topic format'),
);
const operator = z.enum(['and', 'or'], { message: "must be 'and' or 'or'" }).optional();

const getLogsParams = z.object({
  address: optionalAddressSchema,
  fromblock: blockBoundParam,
  toblock: blockBoundParam,
  topic0: topic,
  topic1: topic,
  topic2: topic,
  topic3: topic,
  topic0_1_opr: operator,
  topic0_2_opr: operator,
  topic0_3_opr: operator,
  topic1_2_opr: operator,
  topic1_3_opr: operator,
  topic2_3_opr: operator,
  page: pagingShape.page,
  offset: pageNumber(MAX_LOGS),
});

/** The `logs` module: event logs by contract, by topics (with `and`/`or` pairs), or both, within a block range. */
export function logsModule(services: Services): EtherscanModule {
  return {
    actions: {
      async getLogs(params) {
        const query = parseParams(getLogsParams, params);
        const topics = [query.topic0, query.topic1, query.topic2, query.topic3];
        if (query.address === undefined && topics.every((topic) => topic === undefined)) throw new LogsWithoutFilterError();
        // The window rule reads the offset asked for; a page then holds at most MAX_LOGS.
        checkWindow(query);
        const { startBlock, endBlock } = await services.blocks.bounds({ start: query.fromblock, end: query.toblock });
        const logs = await services.logs.searchText(
          {
            address: query.address,
            startBlock,
            endBlock,
            topics,
            operators: {
              '0_1': query.topic0_1_opr,
              '0_2': query.topic0_2_opr,
              '0_3': query.topic0_3_opr,
              '1_2': query.topic1_2_opr,
              '1_3': query.topic1_3_opr,
              '2_3': query.topic2_3_opr,
            },
            page: query.page,
            offset: Math.min(query.offset, MAX_LOGS),
          },
          'etherscan-logs',
          eventLog,
        );
        return list(logs, 'No records found');
      },
    },
    caching: {
      getLogs: {
        // A contract's logs over every block (its event list, oldest first) change only with the
        // blocks that add some of them, and a full page not even then.
        scopes: (params) => (contractLogsOnly(params) ? [logsScope(params.address!)] : undefined),
        appendOnly: (params, answer) => contractLogsOnly(params) && fullPage(params, answer),
      },
    },
  };
}

/** Whether getLogs asks for one contract's logs over every block: its address alone, no topic and no block bound. */
function contractLogsOnly(params: EtherscanParams): boolean {
  return (
    params.address !== undefined &&
    params.fromblock === undefined &&
    params.toblock === undefined &&
    [params.topic0, params.topic1, params.topic2, params.topic3].every((topic) => topic === undefined)
  );
}

/** Whether a getLogs answer holds as many logs as its page may. */
function fullPage(params: EtherscanParams, answer: unknown): boolean {
  const { result } = answer as EtherscanAnswer<unknown[] | JsonArrayText<unknown>>;
  const { offset } = parseParams(getLogsParams, params);
  return typeof result !== 'string' && result.length === Math.min(offset, MAX_LOGS);
}
