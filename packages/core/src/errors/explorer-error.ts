import { ERROR_TABLE, type ErrorCode } from './codes.js';

/**
 * Base of every error ChainLens answers on purpose. Carries its code, the HTTP status and the
 * envelope message from {@link ERROR_TABLE}, and the envelope `result` (usually `null`).
 */
export class ExplorerError extends Error {
  readonly code: ErrorCode;
  readonly httpStatus: number;
  readonly result: unknown;

  constructor(code: ErrorCode, options: { message?: string; result?: unknown; cause?: unknown } = {}) {
    super(options.message ?? ERROR_TABLE[code].message, { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.httpStatus = ERROR_TABLE[code].http;
    this.result = options.result ?? null;
  }
}

export class InvalidBlockNumberError extends ExplorerError {
  constructor() {
    super('INVALID_BLOCK_NUMBER');
  }
}

export class InvalidHashError extends ExplorerError {
  constructor() {
    super('INVALID_HASH');
  }
}

export class InvalidAddressError extends ExplorerError {
  constructor() {
    super('INVALID_ADDRESS');
  }
}

/** A malformed parameter or body field: `Error! Invalid request: <field>: <reason>`. */
export class InvalidRequestError extends ExplorerError {
  constructor(
    readonly field: string,
    readonly reason: string,
  ) {
    super('INVALID_REQUEST', { message: `${ERROR_TABLE.INVALID_REQUEST.message}: ${field}: ${reason}` });
  }
}

/** A body that is not JSON: the REST answer is the generic invalid request, JSON-RPC's is a parse error. */
export class MalformedJsonError extends InvalidRequestError {
  constructor() {
    super('body', 'malformed JSON');
  }
}

/**
 * The node's debug and trace APIs both refused a transaction trace (a node without tracing);
 * `reason` is the debug API's refusal, in the node's words.
 */
export class TracingUnavailableError extends ExplorerError {
  constructor(readonly reason: string) {
    super('TRACING_UNAVAILABLE', { message: `${ERROR_TABLE.TRACING_UNAVAILABLE.message}: ${reason}` });
  }
}

/** The node refused to execute a call or transaction; `result` carries the decoded reason. */
export class ExecutionFailedError extends ExplorerError {
  constructor(revertReason: string) {
    super('EXECUTION_FAILED', { result: { revertReason } });
  }
}

export class BlockNotFoundError extends ExplorerError {
  constructor() {
    super('BLOCK_NOT_FOUND');
  }
}

export class TransactionNotFoundError extends ExplorerError {
  constructor() {
    super('TRANSACTION_NOT_FOUND');
  }
}

export class EndpointNotFoundError extends ExplorerError {
  constructor() {
    super('ENDPOINT_NOT_FOUND');
  }
}

export class PayloadTooLargeError extends ExplorerError {
  /** Part of the body was left unread: the connection closes after the answer. */
  readonly unread: boolean;

  constructor(options: { unread?: boolean } = {}) {
    super('PAYLOAD_TOO_LARGE');
    this.unread = options.unread ?? false;
  }
}

export class HeadersTooLargeError extends ExplorerError {
  constructor() {
    super('HEADERS_TOO_LARGE');
  }
}

/** The upstream node could not be reached or did not answer in time. */
export class UpstreamUnavailableError extends ExplorerError {
  constructor(cause?: unknown) {
    super('UPSTREAM_UNAVAILABLE', { cause });
  }
}

/** Anything unexpected, masked: the cause is logged, never returned. */
export class InternalError extends ExplorerError {
  constructor(cause?: unknown) {
    super('INTERNAL', { cause });
  }
}

/** Turns anything thrown into an {@link ExplorerError}; unknown errors become {@link InternalError}. */
export function toExplorerError(error: unknown): ExplorerError {
  return error instanceof ExplorerError ? error : new InternalError(error);
}

/** No credentials where a route needs them, or a token that does not verify. */
export class UnauthorizedError extends ExplorerError {
  constructor() {
    super('UNAUTHORIZED');
  }
}

/** A JWT that verified but whose `exp` has passed. */
export class TokenExpiredError extends ExplorerError {
  constructor() {
    super('TOKEN_EXPIRED');
  }
}

/** Login with an unknown email or a wrong password: one answer for both. */
export class InvalidCredentialsError extends ExplorerError {
  constructor() {
    super('INVALID_CREDENTIALS');
  }
}

export class EmailTakenError extends ExplorerError {
  constructor() {
    super('EMAIL_TAKEN');
  }
}

/** An API key that is malformed, unknown, revoked or expired, or whose owner was deactivated. */
export class InvalidApiKeyError extends ExplorerError {
  constructor() {
    super('INVALID_API_KEY');
  }
}

/** Authenticated, but without the scope the route needs. */
export class ForbiddenError extends ExplorerError {
  constructor() {
    super('FORBIDDEN');
  }
}

/** No key with that id among the caller's own. */
export class ApiKeyNotFoundError extends ExplorerError {
  constructor() {
    super('API_KEY_NOT_FOUND');
  }
}

/** A user who already holds as many live API keys as `auth.maxApiKeysPerUser` allows asked for another (409). */
export class ApiKeyLimitError extends ExplorerError {
  constructor() {
    super('API_KEY_LIMIT');
  }
}

/** No user with that id or email (admin routes). */
export class UserNotFoundError extends ExplorerError {
  constructor() {
    super('USER_NOT_FOUND');
  }
}

/** No indexed token transfers at that address. */
export class TokenNotFoundError extends ExplorerError {
  constructor() {
    super('TOKEN_NOT_FOUND');
  }
}

/** No contract at an address: no code at the indexed head and no creation indexed. */
export class ContractNotFoundError extends ExplorerError {
  constructor() {
    super('CONTRACT_NOT_FOUND');
  }
}

/** No verified source at an address, so no ABI to answer (whether or not a contract is there). */
export class ContractNotVerifiedError extends ExplorerError {
  constructor() {
    super('CONTRACT_NOT_VERIFIED');
  }
}

/** A search that would read more stored records than one answer may (a filter storage cannot narrow). */
export class QueryTooLargeError extends ExplorerError {
  /** `message` says what was too large where the code's own words (a block range) do not fit. */
  constructor(message?: string) {
    super('QUERY_TOO_LARGE', message === undefined ? {} : { message });
  }
}

/** No metadata profile set for an address that is no token either. */
export class MetadataNotFoundError extends ExplorerError {
  constructor() {
    super('METADATA_NOT_FOUND');
  }
}

/** No chart series of that name. */
export class ChartNotFoundError extends ExplorerError {
  constructor() {
    super('CHART_NOT_FOUND');
  }
}

/** No public label set for the address. */
export class LabelNotFoundError extends ExplorerError {
  constructor() {
    super('LABEL_NOT_FOUND');
  }
}

/** A user who keeps as many watch-list entries as `labels.maxPrivatePerUser` allows asked for another (409). */
export class WatchlistLimitError extends ExplorerError {
  constructor() {
    super('WATCHLIST_LIMIT');
  }
}

/** Over a rate limit or throttle; `retryAfterSeconds` goes out as `Retry-After`. */
export class RateLimitedError extends ExplorerError {
  constructor(readonly retryAfterSeconds: number) {
    super('RATE_LIMITED');
  }
}

/** Every compilation slot is busy and the queue is full: `Max rate limit reached`, come back later. */
export class CompilerBusyError extends RateLimitedError {}

/**
 * A verification that cannot succeed as submitted. `reason` says why in one sentence; a
 * verification job's status carries it (`Fail - Unable to verify. <reason>`).
 */
export class VerificationFailedError extends ExplorerError {
  constructor(
    code: 'COMPILER_NOT_AVAILABLE' | 'COMPILATION_FAILED' | 'BYTECODE_MISMATCH',
    readonly reason: string,
  ) {
    super(code, { message: `${ERROR_TABLE[code].message}: ${reason}` });
  }
}

/** The requested solc version is neither the bundled one nor among the configured builds. */
export class CompilerNotAvailableError extends VerificationFailedError {
  constructor(reason: string) {
    super('COMPILER_NOT_AVAILABLE', reason);
  }
}

/** The compiler refused the sources, or could not finish within its limits. */
export class CompilationFailedError extends VerificationFailedError {
  constructor(reason: string) {
    super('COMPILATION_FAILED', reason);
  }
}

/** A compilation stopped at its wall-clock limit (its worker was terminated). */
export class CompilationTimeLimitError extends CompilationFailedError {
  constructor(readonly limitMs: number) {
    super(`it ran longer than the time limit of ${limitMs} ms`);
  }
}

/** A compilation needed more memory than its worker may use. */
export class CompilationMemoryLimitError extends CompilationFailedError {
  constructor(readonly limitMb: number) {
    super(`it needed more than the memory limit of ${limitMb} MB`);
  }
}

/** The compiled code is not the code on the chain; `reason` says what differed. */
export class BytecodeMismatchError extends VerificationFailedError {
  constructor(reason: string) {
    super('BYTECODE_MISMATCH', reason);
  }
}
