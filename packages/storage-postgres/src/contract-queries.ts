import type { Statement } from './queries.js';
import type { Tables } from './tables.js';

const CREATION_COLUMNS = `address, creator, transaction_hash AS "transactionHash", block_number AS "blockNumber",
  transaction_index AS "transactionIndex", trace_index AS "traceIndex"`;

/** The statements of contract creations. */
export function contractStatements(t: Tables) {
  return {
    blockContracts: {
      name: 'chainlens_block_contracts',
      text: `SELECT ${CREATION_COLUMNS} FROM ${t.contractCreations} WHERE block_number = $1 ORDER BY transaction_index, trace_index`,
    },
    contractCreation: {
      name: 'chainlens_contract_creation',
      text: `SELECT ${CREATION_COLUMNS} FROM ${t.contractCreations} WHERE address = $1
        ORDER BY block_number DESC, transaction_index DESC, trace_index DESC LIMIT 1`,
    },
  } satisfies Record<string, Statement>;
}

export type ContractStatements = ReturnType<typeof contractStatements>;
