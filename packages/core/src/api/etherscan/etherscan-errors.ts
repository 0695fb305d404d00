import { ExplorerError } from '../../errors/index.js';

/**
 * A refusal in Etherscan's own words, answered as `{status: '0', message: 'NOTOK', result}` with
 * HTTP 200 (so the code's HTTP status never applies).
 */
export class EtherscanError extends ExplorerError {
  constructor(reason: string) {
    super('INVALID_REQUEST', { message: reason });
  }
}

export class InvalidModuleError extends EtherscanError {
  constructor() {
    super('Error! Missing Or invalid Module name');
  }
}

export class InvalidActionError extends EtherscanError {
  constructor() {
    super('Error! Missing Or invalid Action name');
  }
}

/**
 * A `chainid` other than the chain this explorer serves, or none on `/v2/api`: Etherscan's own
 * words, which V2 clients recognise.
 */
export class UnsupportedChainError extends EtherscanError {
  constructor() {
    super('Missing or unsupported chainid parameter (required for v2 api), please see chainlist for the list of supported chainids');
  }
}

/** Etherscan's paging rule: no page may end past the 10,000th record. */
export class ResultWindowTooLargeError extends EtherscanError {
  constructor() {
    super('Result window is too large, PageNo x Offset size must be less than or equal to 10000');
  }
}

/** An estimate in time before two blocks are indexed: no block time to count with. */
export class NoBlockTimeError extends EtherscanError {
  constructor() {
    super('Error! No block time yet: too few blocks are indexed to estimate one');
  }
}

/** A parameter that would narrow the answer, sent to an action that does not read it. */
export class UnreadParameterError extends EtherscanError {
  constructor(name: string) {
    super(`Error! This action does not take the ${name} parameter`);
  }
}
