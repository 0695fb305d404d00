import type {
  Hex,
  ListedTransaction,
  StoredLog,
  StoredLogWithGas,
  StoredToken,
  StoredTokenTransfer,
  StoredTransferWithTransaction,
  TokenStandard,
  TransferPageWithTokens,
} from '@chainlens/core';
import type { Tables } from './tables.js';

/** A named statement: pg prepares it once per connection and reuses the plan. */
export interface Statement {
  name: string;
  text: string;
}

/** Block columns aliased to {@link StoredBlock} keys: a row is the record as is. */
const BLOCK_COLUMNS = `number, hash, parent_hash AS "parentHash", timestamp, miner, gas_used AS "gasUsed",
  gas_limit AS "gasLimit", base_fee_per_gas AS "baseFeePerGas", difficulty, size, state_root AS "stateRoot",
  transactions_root AS "transactionsRoot", receipts_root AS "receiptsRoot", extra_data AS "extraData",
  transaction_count AS "transactionCount"`;

/** Transaction columns of alias `t` but the logs bloom, aliased to {@link ListedTransaction} keys. */
const LISTED_TRANSACTION_COLUMNS = `t.hash, t.block_number AS "blockNumber", t.block_hash AS "blockHash",
  t.transaction_index AS "transactionIndex", t.timestamp, t.from_address AS "from", t.to_address AS "to", t.value,
  t.gas, t.gas_price AS "gasPrice", t.max_fee_per_gas AS "maxFeePerGas",
  t.max_priority_fee_per_gas AS "maxPriorityFeePerGas", t.nonce, t.input, t.type, t.status, t.gas_used AS "gasUsed",
  t.cumulative_gas_used AS "cumulativeGasUsed", t.effective_gas_price AS "effectiveGasPrice",
  t.contract_address AS "contractAddress"`;

/** Transaction columns of alias `t`, aliased to {@link StoredTransaction} keys. */
export const TRANSACTION_COLUMNS = `${LISTED_TRANSACTION_COLUMNS}, t.logs_bloom AS "logsBloom"`;

/** Token columns: metadata stays in its columns until {@link toStoredToken} nests it. */
const TOKEN_COLUMNS = `address, standard, first_block AS "firstBlock", transfer_count AS "transferCount",
  holder_count AS "holderCount", metadata_read AS "metadataRead", name, symbol, decimals, interfaces`;

/** Token transfer columns aliased to {@link StoredTokenTransfer} keys. */
export const TOKEN_TRANSFER_COLUMNS = `block_number AS "blockNumber", log_index AS "logIndex", batch_index AS "batchIndex",
  transaction_hash AS "transactionHash", transaction_index AS "transactionIndex", timestamp, token, standard, operator,
  from_address AS "from", to_address AS "to", value, token_id AS "tokenId"`;

/** Columns of a log row (`l`) joined with its transaction (`t`). */
export const LOG_COLUMNS = `l.address, l.topic0, l.topic1, l.topic2, l.topic3, l.data, l.block_number AS "blockNumber",
  t.block_hash AS "blockHash", t.hash AS "transactionHash", l.transaction_index AS "transactionIndex",
  l.log_index AS "logIndex"`;

/** {@link LOG_COLUMNS} with what getLogs shows of the transaction: its block time and gas. */
export const LOG_WITH_GAS_COLUMNS = `${LOG_COLUMNS}, t.timestamp, t.effective_gas_price AS "effectiveGasPrice", t.gas_used AS "gasUsed"`;

/**
 * A token transfer (`x`) with its transaction (`t`): the transaction's columns as
 * {@link LISTED_TRANSACTION_COLUMNS}, then the transfer's own under names of their own (see
 * {@link toTransferWithTransaction}); its block, position and hash are the transaction's.
 */
const TRANSFER_WITH_TRANSACTION_COLUMNS = `${LISTED_TRANSACTION_COLUMNS}, x.log_index AS "logIndex", x.batch_index AS "batchIndex",
  x.timestamp AS "transferTimestamp", x.token, x.standard, x.operator, x.from_address AS "transferFrom",
  x.to_address AS "transferTo", x.value AS "transferValue", x.token_id AS "tokenId"`;

/** {@link TRANSFER_WITH_TRANSACTION_COLUMNS}, then the transfer's token's (`tk`) columns but its address (the transfer's token). */
const TRANSFER_WITH_TOKEN_COLUMNS = `${TRANSFER_WITH_TRANSACTION_COLUMNS}, tk.standard AS "tokenStandard", tk.first_block AS "firstBlock",
  tk.transfer_count AS "transferCount", tk.holder_count AS "holderCount", tk.metadata_read AS "metadataRead", tk.name, tk.symbol,
  tk.decimals, tk.interfaces`;

/*
 * Log and transfer reads take their rows as arrays (pg's `rowMode: 'array'`), in their columns'
 * order, and the functions below make the records: pg builds no row object keyed by column name
 * first, and no record is copied from it. On a 100-row getLogs page that is about 15% less of the
 * client's CPU.
 */

/** A row of {@link LOG_COLUMNS} as an array. */
type LogArray = [Hex, Hex | null, Hex | null, Hex | null, Hex | null, Hex, bigint, Hex, Hex, number, number];

/** The record of a {@link LOG_COLUMNS} row: its topics are its non-null topic columns. */
export function toStoredLog(row: unknown[]): StoredLog {
  const [address, topic0, topic1, topic2, topic3, data, blockNumber, blockHash, transactionHash, transactionIndex, logIndex] = row as LogArray;
  return { address, data, blockNumber, blockHash, transactionHash, transactionIndex, logIndex, topics: topicsOf(topic0, topic1, topic2, topic3) };
}

/** The record of a {@link LOG_WITH_GAS_COLUMNS} row. */
export function toStoredLogWithGas(row: unknown[]): StoredLogWithGas {
  const [address, topic0, topic1, topic2, topic3, data, blockNumber, blockHash, transactionHash, transactionIndex, logIndex, timestamp, effectiveGasPrice, gasUsed] = row as [
    ...LogArray,
    bigint,
    bigint,
    bigint,
  ];
  return {
    address,
    data,
    blockNumber,
    blockHash,
    transactionHash,
    transactionIndex,
    logIndex,
    timestamp,
    effectiveGasPrice,
    gasUsed,
    topics: topicsOf(topic0, topic1, topic2, topic3),
  };
}

function topicsOf(topic0: Hex | null, topic1: Hex | null, topic2: Hex | null, topic3: Hex | null): Hex[] {
  const topics: Hex[] = [];
  for (const topic of [topic0, topic1, topic2, topic3]) if (topic !== null) topics.push(topic);
  return topics;
}

/** The record of a {@link TOKEN_TRANSFER_COLUMNS} row read as an array. */
export function toStoredTokenTransfer(row: unknown[]): StoredTokenTransfer {
  const [blockNumber, logIndex, batchIndex, transactionHash, transactionIndex, timestamp, token, standard, operator, from, to, value, tokenId] = row as [
    bigint,
    number,
    number,
    Hex,
    number,
    bigint,
    Hex,
    TokenStandard,
    Hex | null,
    Hex,
    Hex,
    bigint,
    bigint | null,
  ];
  return { blockNumber, logIndex, batchIndex, transactionHash, transactionIndex, timestamp, token, standard, operator, from, to, value, tokenId };
}

/** A row of {@link TRANSFER_WITH_TRANSACTION_COLUMNS} as an array. */
type TransferWithTransactionArray = [
  // The transaction's columns (LISTED_TRANSACTION_COLUMNS)…
  Hex, bigint, Hex, number, bigint, Hex, Hex | null, bigint, bigint, bigint, bigint | null, bigint | null, bigint, Hex, number, 0 | 1, bigint, bigint, bigint, Hex | null,
  // …then the transfer's own.
  number, number, bigint, Hex, StoredTokenTransfer['standard'], Hex | null, Hex, Hex, bigint, bigint | null,
];

/** The token columns of a {@link TRANSFER_WITH_TOKEN_COLUMNS} row, after its {@link TransferWithTransactionArray}. */
type TokenArray = [TokenStandard, bigint, bigint, bigint, boolean, string | null, string | null, number | null, string[]];

/** Where the token's columns start in a {@link TRANSFER_WITH_TOKEN_COLUMNS} row. */
const TOKEN_AT = 30;

/**
 * The page of {@link TRANSFER_WITH_TOKEN_COLUMNS} rows: each transfer with its transaction, and
 * each token once, made from its first row (its columns are the same on every row).
 */
export function toTransferPageWithTokens(rows: unknown[][]): TransferPageWithTokens {
  const transfers: StoredTransferWithTransaction[] = [];
  const tokens = new Map<Hex, StoredToken>();
  for (const row of rows) {
    const entry = toTransferWithTransaction(row);
    transfers.push(entry);
    const address = entry.transfer.token;
    if (tokens.has(address)) continue;
    const [standard, firstBlock, transferCount, holderCount, metadataRead, name, symbol, decimals, interfaces] = row.slice(TOKEN_AT) as TokenArray;
    tokens.set(address, {
      address,
      standard,
      firstBlock,
      transferCount: Number(transferCount),
      holderCount: Number(holderCount),
      metadata: metadataRead ? { name, symbol, decimals, interfaces } : null,
    });
  }
  return { transfers, tokens: [...tokens.values()] };
}

/** Splits a {@link TRANSFER_WITH_TRANSACTION_COLUMNS} row into its transfer and its transaction. */
export function toTransferWithTransaction(row: unknown[]): StoredTransferWithTransaction {
  const r = row as TransferWithTransactionArray;
  const transaction: ListedTransaction = {
    hash: r[0],
    blockNumber: r[1],
    blockHash: r[2],
    transactionIndex: r[3],
    timestamp: r[4],
    from: r[5],
    to: r[6],
    value: r[7],
    gas: r[8],
    gasPrice: r[9],
    maxFeePerGas: r[10],
    maxPriorityFeePerGas: r[11],
    nonce: r[12],
    input: r[13],
    type: r[14],
    status: r[15],
    gasUsed: r[16],
    cumulativeGasUsed: r[17],
    effectiveGasPrice: r[18],
    contractAddress: r[19],
  };
  const transfer: StoredTokenTransfer = {
    blockNumber: r[1],
    logIndex: r[20],
    batchIndex: r[21],
    transactionHash: r[0],
    transactionIndex: r[3],
    timestamp: r[22],
    token: r[23],
    standard: r[24],
    operator: r[25],
    from: r[26],
    to: r[27],
    value: r[28],
    tokenId: r[29],
  };
  return { transfer, transaction };
}

/**
 * The ordinals of a page of a list numbered 1, 2, 3… in chain order, between the first
 * (`bounds.lo`) and last (`bounds.hi`) ordinals of its block range: $4 entries after skipping $5,
 * from the oldest (`ASC`) or the newest (`DESC`).
 */
function ordinalRange(order: 'ASC' | 'DESC'): string {
  return order === 'DESC' ? 'greatest(bounds.lo, bounds.hi - $5 - $4 + 1) AND bounds.hi - $5' : 'bounds.lo + $5 AND least(bounds.hi, bounds.lo + $5 + $4 - 1)';
}

/** Every read statement of the Storage API; each is served by an index. */
export function readStatements(t: Tables) {
  const transactionsOfAddress = (order: 'ASC' | 'DESC', columns: 'records' | 'hashes'): Statement => {
    // The range's entries have consecutive ordinals (they number the address's transactions in
    // chain order), so its first and last entry bound them and the page is a range of about a
    // page's entries on address_transactions_by_seq: a deep page skips nothing row by row.
    const edge = (direction: 'ASC' | 'DESC') => `(SELECT seq FROM ${t.addressTransactions}
          WHERE address = $1 AND block_number BETWEEN $2 AND $3
          ORDER BY block_number ${direction}, transaction_index ${direction} LIMIT 1)`;
    return {
      name: `chainlens_address_transaction${columns === 'hashes' ? '_hashes' : 's'}_${order.toLowerCase()}`,
      text: `SELECT ${columns === 'hashes' ? 't.hash' : TRANSACTION_COLUMNS}
      FROM (SELECT ${edge('ASC')} AS lo, ${edge('DESC')} AS hi) bounds
      JOIN ${t.addressTransactions} page ON page.address = $1 AND page.seq BETWEEN ${ordinalRange(order)}
      JOIN ${t.transactions} t USING (block_number, transaction_index)
      ORDER BY page.seq ${order}`,
    };
  };

  const transfersOfToken = (order: 'ASC' | 'DESC', from: boolean, to: boolean, joined: boolean): Statement => {
    const name = `chainlens_token_transfers_${order.toLowerCase()}${from ? '_from' : ''}${to ? '_to' : ''}${joined ? '_tx' : ''}`;
    const chainOrder = `block_number ${order}, log_index ${order}, batch_index ${order}`;
    // One statement per filter combination, so each keeps a plan for its own index.
    if (from || to) {
      const page = `SELECT ${joined ? '*' : TOKEN_TRANSFER_COLUMNS} FROM ${t.tokenTransfers}
      WHERE token = $1 AND block_number BETWEEN $2 AND $3${from ? ' AND from_address = $6' : ''}${to ? ` AND to_address = $${from ? 7 : 6}` : ''}
      ORDER BY ${chainOrder}
      LIMIT $4 OFFSET $5`;
      // Joined, the page is cut on the transfers alone and only its rows join their transaction.
      return { name, text: joined ? withTransactions(page, order) : page };
    }
    // Unfiltered, the range's transfers have consecutive ordinals (token_seq numbers the token's
    // transfers in chain order), so its first and last transfer bound them and the page is a
    // range of about a page's entries on token_transfers_by_token_seq: a deep page skips nothing
    // row by row, and costs what the first one does.
    const edge = (direction: 'ASC' | 'DESC') => `(SELECT token_seq FROM ${t.tokenTransfers}
          WHERE token = $1 AND block_number BETWEEN $2 AND $3
          ORDER BY block_number ${direction}, log_index ${direction}, batch_index ${direction} LIMIT 1)`;
    return {
      name,
      text: `SELECT ${joined ? TRANSFER_WITH_TRANSACTION_COLUMNS : TOKEN_TRANSFER_COLUMNS}
      FROM (SELECT ${edge('ASC')} AS lo, ${edge('DESC')} AS hi) bounds
      JOIN ${t.tokenTransfers} x ON x.token = $1 AND x.token_seq BETWEEN ${ordinalRange(order)}${
        joined ? `\n      JOIN ${t.transactions} t ON t.block_number = x.block_number AND t.transaction_index = x.transaction_index` : ''
      }
      ORDER BY x.token_seq ${order}`,
    };
  };
  /**
   * A page of transfer rows (`SELECT *`, in chain order as `order` says) joined with their
   * transactions, and (`tokens`) their tokens, in the same order.
   */
  const withTransactions = (page: string, order: 'ASC' | 'DESC', tokens = false) => `SELECT ${tokens ? TRANSFER_WITH_TOKEN_COLUMNS : TRANSFER_WITH_TRANSACTION_COLUMNS}
      FROM (${page}) x
      JOIN ${t.transactions} t ON t.block_number = x.block_number AND t.transaction_index = x.transaction_index${tokens ? `\n      JOIN ${t.tokens} tk ON tk.address = x.token` : ''}
      ORDER BY x.block_number ${order}, x.log_index ${order}, x.batch_index ${order}`;
  /** An address's transfer page, alone or (`joined`) each with its transaction and its token. */
  const transfersOfAddress = (order: 'ASC' | 'DESC', joined: boolean): Statement => {
    const side = (party: 'from_address' | 'to_address') => `(SELECT * FROM ${t.tokenTransfers}
        WHERE ${party} = $1 AND block_number BETWEEN $2 AND $3
          AND ($6::bytea IS NULL OR token = $6) AND ($7::text IS NULL OR standard = $7)
        ORDER BY block_number ${order}, log_index ${order}, batch_index ${order}
        LIMIT $4::bigint + $5::bigint)`;
    // Each side reads only the rows the page can need from its own index; UNION drops the
    // second copy of a transfer to oneself (the rows are equal).
    const page = `SELECT ${joined ? '*' : TOKEN_TRANSFER_COLUMNS} FROM (${side('from_address')} UNION ${side('to_address')}) transfers
        ORDER BY block_number ${order}, log_index ${order}, batch_index ${order}
        LIMIT $4 OFFSET $5`;
    return { name: `chainlens_address_token_transfers_${order.toLowerCase()}${joined ? '_tokens' : ''}`, text: joined ? withTransactions(page, order, true) : page };
  };
  const transactionsBetween = (order: 'ASC' | 'DESC'): Statement => ({
    name: `chainlens_transactions_between_${order.toLowerCase()}`,
    // A merge of the two addresses' index entries, in chain order; only the page's rows join
    // their transaction.
    text: `SELECT ${TRANSACTION_COLUMNS}
      FROM (
        SELECT a.block_number, a.transaction_index
        FROM ${t.addressTransactions} a
        JOIN ${t.addressTransactions} b ON b.block_number = a.block_number AND b.transaction_index = a.transaction_index
        WHERE a.address = $1 AND b.address = $2
        ORDER BY a.block_number ${order}, a.transaction_index ${order}
        LIMIT $3 OFFSET $4
      ) page
      JOIN ${t.transactions} t USING (block_number, transaction_index)
      ORDER BY page.block_number ${order}, page.transaction_index ${order}`,
  });

  const logsOfAddress = (order: 'ASC' | 'DESC', topic0: boolean, gas: boolean): Statement => {
    const name = `chainlens_address_logs_${order.toLowerCase()}${topic0 ? '_topic0' : ''}${gas ? '_gas' : ''}`;
    const columns = gas ? LOG_WITH_GAS_COLUMNS : LOG_COLUMNS;
    // By first topic, the page is cut on logs_by_address, and only its rows join their transaction.
    if (topic0) {
      return {
        name,
        text: `SELECT ${columns}
      FROM (
        SELECT * FROM ${t.logs}
        WHERE address = $1 AND block_number BETWEEN $2 AND $3 AND topic0 = $6
        ORDER BY block_number ${order}, log_index ${order}
        LIMIT $4 OFFSET $5
      ) l
      JOIN ${t.transactions} t ON t.block_number = l.block_number AND t.transaction_index = l.transaction_index
      ORDER BY l.block_number ${order}, l.log_index ${order}`,
      };
    }
    // Unfiltered, the range's logs have consecutive ordinals (address_seq numbers the contract's
    // logs in chain order): its first and last log, found on logs_by_address, bound them, and the
    // page is a range of about a page's entries on logs_by_address_seq, so a deep page costs what
    // the first one does.
    const edge = (direction: 'ASC' | 'DESC') => `(SELECT address_seq FROM ${t.logs}
          WHERE address = $1 AND block_number BETWEEN $2 AND $3
          ORDER BY block_number ${direction}, log_index ${direction} LIMIT 1)`;
    return {
      name,
      text: `SELECT ${columns}
      FROM (SELECT ${edge('ASC')} AS lo, ${edge('DESC')} AS hi) bounds
      JOIN ${t.logs} l ON l.address = $1 AND l.address_seq BETWEEN ${ordinalRange(order)}
      JOIN ${t.transactions} t ON t.block_number = l.block_number AND t.transaction_index = l.transaction_index
      ORDER BY l.address_seq ${order}`,
    };
  };
  const addressLogRange = (columns: string, name: string): Statement => ({
    name,
    text: `SELECT ${columns}
      FROM ${t.logs} l
      JOIN ${t.transactions} t ON t.block_number = l.block_number AND t.transaction_index = l.transaction_index
      WHERE l.address = $1 AND l.address_seq BETWEEN $2 AND $3
      ORDER BY l.address_seq`,
  });
  const addressLogs: Record<string, Statement> = {};
  for (const order of ['ASC', 'DESC'] as const) {
    for (const topic0 of [false, true]) for (const gas of [false, true]) addressLogs[addressLogsKey(order, topic0, gas)] = logsOfAddress(order, topic0, gas);
  }

  const tokenTransfers: Record<string, Statement> = {};
  for (const order of ['ASC', 'DESC'] as const) {
    for (const from of [false, true]) {
      for (const to of [false, true]) for (const joined of [false, true]) tokenTransfers[tokenTransfersKey(order, from, to, joined)] = transfersOfToken(order, from, to, joined);
    }
  }

  return {
    ping: { name: 'chainlens_ping', text: 'SELECT 1' },
    cursor: {
      name: 'chainlens_cursor',
      text: `SELECT cursor_number AS number, cursor_hash AS hash FROM ${t.chainState}`,
    },
    traceCursor: {
      name: 'chainlens_trace_cursor',
      text: `SELECT traced_number AS traced FROM ${t.chainState}`,
    },
    totals: {
      name: 'chainlens_totals',
      text: `SELECT total_transactions, total_accounts, total_contracts FROM ${t.chainState}`,
    },
    blockByNumber: {
      name: 'chainlens_block_by_number',
      text: `SELECT ${BLOCK_COLUMNS} FROM ${t.blocks} WHERE number = $1`,
    },
    blockByHash: {
      name: 'chainlens_block_by_hash',
      text: `SELECT ${BLOCK_COLUMNS} FROM ${t.blocks} WHERE hash = $1`,
    },
    minerBlocks: {
      name: 'chainlens_miner_blocks',
      text: `SELECT ${BLOCK_COLUMNS} FROM ${t.blocks} WHERE miner = $1 ORDER BY number DESC LIMIT $2 OFFSET $3`,
    },
    recentBlocks: {
      name: 'chainlens_recent_blocks',
      text: `SELECT ${BLOCK_COLUMNS} FROM ${t.blocks} ORDER BY number DESC LIMIT $1`,
    },
    blockTransactionHashes: {
      name: 'chainlens_block_transaction_hashes',
      text: `SELECT hash FROM ${t.transactions} WHERE block_number = $1 ORDER BY transaction_index`,
    },
    // The hashes kept on the block row (concatenated); rows from before migration 9 gather them.
    blockWithTransactionHashes: {
      name: 'chainlens_block_with_transaction_hashes',
      text: `SELECT ${BLOCK_COLUMNS}, coalesce(b.transaction_hashes,
          (SELECT string_agg(t.hash, ''::bytea ORDER BY t.transaction_index) FROM ${t.transactions} t WHERE t.block_number = b.number)) AS "transactionHashes"
        FROM ${t.blocks} b WHERE b.number = $1`,
    },
    blocksWithTransactionHashes: {
      name: 'chainlens_blocks_with_transaction_hashes',
      text: `SELECT ${BLOCK_COLUMNS}, coalesce(b.transaction_hashes,
          (SELECT string_agg(t.hash, ''::bytea ORDER BY t.transaction_index) FROM ${t.transactions} t WHERE t.block_number = b.number)) AS "transactionHashes"
        FROM ${t.blocks} b WHERE b.number = ANY($1::int8[])`,
    },
    blockTransactions: {
      name: 'chainlens_block_transactions',
      text: `SELECT ${TRANSACTION_COLUMNS} FROM ${t.transactions} t WHERE t.block_number = $1 ORDER BY t.transaction_index`,
    },
    blockLogs: {
      name: 'chainlens_block_logs',
      text: `SELECT ${LOG_COLUMNS}
        FROM ${t.logs} l
        JOIN ${t.transactions} t ON t.block_number = l.block_number AND t.transaction_index = l.transaction_index
        WHERE l.block_number = $1
        ORDER BY l.log_index`,
    },
    blockTokenTransfers: {
      name: 'chainlens_block_token_transfers',
      text: `SELECT ${TOKEN_TRANSFER_COLUMNS} FROM ${t.tokenTransfers} WHERE block_number = $1 ORDER BY log_index, batch_index`,
    },
    addressTokenTransferCount: {
      name: 'chainlens_address_token_transfer_count',
      text: `SELECT count(*) AS count FROM ${t.tokenTransfers} WHERE from_address = $1 OR to_address = $1`,
    },
    token: {
      name: 'chainlens_token',
      text: `SELECT ${TOKEN_COLUMNS} FROM ${t.tokens} WHERE address = $1`,
    },
    // `balance > 0` spelled out so the planner can use the partial index. The page is cut by an
    // index-only scan of it, so a deep page's skipped holders never fetch their row; only the
    // page's rows are read, by primary key.
    tokenHolders: {
      name: 'chainlens_token_holders',
      text: `SELECT page.holder, page.balance, h.first_seen AS "firstSeen", h.last_activity AS "lastActivity"
        FROM (
          SELECT holder, balance FROM ${t.tokenHolders} WHERE token = $1 AND balance > 0 AND balance >= $2
          ORDER BY balance DESC, holder LIMIT $3 OFFSET $4
        ) page
        -- A lateral lookup per page row, LIMIT 1: a generic plan, not knowing the token or the
        -- page size, would otherwise hash-join the page with every holder row it read whole.
        CROSS JOIN LATERAL (
          SELECT first_seen, last_activity FROM ${t.tokenHolders} x WHERE x.token = $1 AND x.holder = page.holder LIMIT 1
        ) h
        ORDER BY page.balance DESC, page.holder`,
    },
    // Every holder received the token, so the tokens it ever received (the recipient index) bound
    // the search, each then one primary-key lookup: no index on holder alone is needed. The
    // lateral lookup's LIMIT keeps the planner from turning it into a join that scans every
    // holder row (as a generic plan, not knowing the address, would).
    addressTokenBalances: {
      name: 'chainlens_address_token_balances',
      text: `SELECT h.token, h.balance, h.first_seen AS "firstSeen", h.last_activity AS "lastActivity"
        FROM (SELECT DISTINCT token FROM ${t.tokenTransfers} WHERE to_address = $1) received
        CROSS JOIN LATERAL (
          SELECT token, balance, first_seen, last_activity FROM ${t.tokenHolders}
          WHERE token = received.token AND holder = $1 AND balance > 0 LIMIT 1
        ) h
        ORDER BY h.token LIMIT $2 OFFSET $3`,
    },
    tokenHolderCount: {
      name: 'chainlens_token_holder_count',
      text: `SELECT count(*) AS count FROM ${t.tokenHolders} WHERE token = $1 AND balance > 0 AND balance >= $2`,
    },
    tokenTransfers,
    addressTokenTransfers: { ASC: transfersOfAddress('ASC', false), DESC: transfersOfAddress('DESC', false) },
    addressTokenTransfersWithTokens: { ASC: transfersOfAddress('ASC', true), DESC: transfersOfAddress('DESC', true) },
    addressLogs,
    transactionsBetweenAsc: transactionsBetween('ASC'),
    transactionsBetweenDesc: transactionsBetween('DESC'),
    tokens: {
      name: 'chainlens_tokens',
      text: `SELECT ${TOKEN_COLUMNS} FROM ${t.tokens}
        WHERE NOT (address = ANY($3::bytea[]))
        ORDER BY holder_count DESC, transfer_count DESC, address LIMIT $1 OFFSET $2`,
    },
    // The named tokens alone: a primary key lookup each. A generic plan of one statement for
    // both cases (`$n IS NULL OR address = ANY($n)`) walked every token in popularity order.
    includedTokens: {
      name: 'chainlens_included_tokens',
      text: `SELECT ${TOKEN_COLUMNS} FROM ${t.tokens}
        WHERE address = ANY($3::bytea[]) AND NOT (address = ANY($4::bytea[]))
        ORDER BY holder_count DESC, transfer_count DESC, address LIMIT $1 OFFSET $2`,
    },
    // $1 and $2 bound the prefix's keys (see the token-search migration); exact matches first.
    searchTokens: {
      name: 'chainlens_search_tokens',
      text: `SELECT ${TOKEN_COLUMNS} FROM ${t.tokens}
        WHERE (name_key >= $1 AND name_key < $2) OR (symbol_key >= $1 AND symbol_key < $2)
        ORDER BY (name_key IS NOT DISTINCT FROM $1 OR symbol_key IS NOT DISTINCT FROM $1) DESC, holder_count DESC, transfer_count DESC, address
        LIMIT $3`,
    },
    tokensWithoutMetadata: {
      name: 'chainlens_tokens_without_metadata',
      text: `SELECT address FROM ${t.tokens} WHERE NOT metadata_read ORDER BY first_block, address LIMIT $1`,
    },
    // The newest ordinal is the list's length (ordinals run 1, 2, 3… in chain order): one index entry.
    tokenTransferTip: {
      name: 'chainlens_token_transfer_tip',
      text: `SELECT token_seq AS length, block_number AS "blockNumber" FROM ${t.tokenTransfers} WHERE token = $1 ORDER BY token_seq DESC LIMIT 1`,
    },
    addressLogTip: {
      name: 'chainlens_address_log_tip',
      text: `SELECT address_seq AS length, block_number AS "blockNumber" FROM ${t.logs} WHERE address = $1 ORDER BY address_seq DESC LIMIT 1`,
    },
    // A range of a list's ordinals: exactly its entries, on the ordinals' index.
    tokenTransferRange: {
      name: 'chainlens_token_transfer_range',
      text: `SELECT ${TOKEN_TRANSFER_COLUMNS} FROM ${t.tokenTransfers} WHERE token = $1 AND token_seq BETWEEN $2 AND $3 ORDER BY token_seq`,
    },
    tokenTransferRangeWithTransactions: {
      name: 'chainlens_token_transfer_range_tx',
      text: `SELECT ${TRANSFER_WITH_TRANSACTION_COLUMNS}
      FROM ${t.tokenTransfers} x
      JOIN ${t.transactions} t ON t.block_number = x.block_number AND t.transaction_index = x.transaction_index
      WHERE x.token = $1 AND x.token_seq BETWEEN $2 AND $3
      ORDER BY x.token_seq`,
    },
    addressLogRange: addressLogRange(LOG_COLUMNS, 'chainlens_address_log_range'),
    addressLogRangeWithGas: addressLogRange(LOG_WITH_GAS_COLUMNS, 'chainlens_address_log_range_gas'),
    // Today's holder count, less those the later transfers made holders, plus those they unmade.
    tokenHoldersAt: {
      name: 'chainlens_token_holders_at',
      text: `WITH flows AS (
          SELECT party, sum(flow) AS flow FROM (
            SELECT from_address AS party, -value AS flow FROM ${t.tokenTransfers} WHERE token = $1 AND block_number > $2
            UNION ALL
            SELECT to_address, value FROM ${t.tokenTransfers} WHERE token = $1 AND block_number > $2
          ) moves WHERE party <> '\\x0000000000000000000000000000000000000000'::bytea GROUP BY party
        )
        SELECT coalesce((SELECT holder_count FROM ${t.tokens} WHERE address = $1), 0)
          - count(*) FILTER (WHERE h.balance > 0) + count(*) FILTER (WHERE h.balance - f.flow > 0) AS count
        FROM flows f JOIN ${t.tokenHolders} h ON h.token = $1 AND h.holder = f.party`,
    },
    transactionByHash: {
      name: 'chainlens_transaction_by_hash',
      text: `SELECT ${TRANSACTION_COLUMNS} FROM ${t.transactions} t WHERE t.hash = $1`,
    },
    transactionsByHash: {
      name: 'chainlens_transactions_by_hash',
      text: `SELECT ${TRANSACTION_COLUMNS} FROM ${t.transactions} t WHERE t.hash = ANY($1::bytea[])`,
    },
    transactionLogs: {
      name: 'chainlens_transaction_logs',
      text: `SELECT ${LOG_COLUMNS}
        FROM ${t.transactions} t
        JOIN ${t.logs} l ON l.block_number = t.block_number AND l.transaction_index = t.transaction_index
        WHERE t.hash = $1
        ORDER BY l.log_index`,
    },
    addressTransactionsAsc: transactionsOfAddress('ASC', 'records'),
    addressTransactionsDesc: transactionsOfAddress('DESC', 'records'),
    addressTransactionHashesAsc: transactionsOfAddress('ASC', 'hashes'),
    addressTransactionHashesDesc: transactionsOfAddress('DESC', 'hashes'),
    addressActivity: {
      name: 'chainlens_address_activity',
      text: `SELECT s.transaction_count, fb.timestamp AS first_seen, lb.timestamp AS last_seen
        FROM ${t.addressStats} s
        JOIN ${t.blocks} fb ON fb.number = s.first_block
        JOIN ${t.blocks} lb ON lb.number = s.last_block
        WHERE s.address = $1`,
    },
  } satisfies Record<string, Statement | Record<string, Statement>>;
}

/**
 * The one write outside block writes and rollbacks on chain tables: a token's metadata, read from
 * its contract, with its name's and symbol's search keys ($6, $7: {@link searchKey}).
 */
export function setTokenMetadataStatement(t: Tables): Statement {
  return {
    name: 'chainlens_set_token_metadata',
    text: `UPDATE ${t.tokens} SET metadata_read = true, name = $2, symbol = $3, decimals = $4, interfaces = $5, name_key = $6, symbol_key = $7 WHERE address = $1`,
  };
}

/** How a name or symbol is searched: its lowercase UTF-8 bytes. */
export function searchKey(text: string): Buffer {
  return Buffer.from(text.toLowerCase(), 'utf8');
}

/** The first key after every key starting with `key`: its last byte raised by one (UTF-8 has no 0xFF byte). */
export function afterPrefix(key: Buffer): Buffer {
  const after = Buffer.from(key);
  after[after.length - 1]! += 1;
  return after;
}

/** Key of the address logs statement for a sort order, whether topic0 filters and whether it reads the transactions' gas. */
export function addressLogsKey(order: 'ASC' | 'DESC', topic0: boolean, gas = false): string {
  return `${order}${topic0 ? ':topic0' : ''}${gas ? ':gas' : ''}`;
}

/** Key of the token transfer statement for a sort order, the filters present and whether it joins the transactions. */
export function tokenTransfersKey(order: 'ASC' | 'DESC', from: boolean, to: boolean, joined = false): string {
  return `${order}${from ? ':from' : ''}${to ? ':to' : ''}${joined ? ':tx' : ''}`;
}

/** The read statements of one schema. */
export type ReadStatements = ReturnType<typeof readStatements>;
