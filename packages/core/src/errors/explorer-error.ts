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
  constructor() {
    super('PAYLOAD_TOO_LARGE');
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

/** No metadata profile set for an address that is no token either. */
export class MetadataNotFoundError extends ExplorerError {
  constructor() {
    super('METADATA_NOT_FOUND');
  }
}

/** Over a rate limit or throttle; `retryAfterSeconds` goes out as `Retry-After`. */
export class RateLimitedError extends ExplorerError {
  constructor(readonly retryAfterSeconds: number) {
    super('RATE_LIMITED');
  }
}
