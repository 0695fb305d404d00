/**
 * The one table that maps every error ChainLens answers to its HTTP status and envelope message
 * (`shared/spec/decisions.md`). JSON-RPC and GraphQL map the same codes onto their own channels.
 */
export const ERROR_TABLE = {
  INVALID_BLOCK_NUMBER: { http: 400, message: 'Error! Invalid block number' },
  INVALID_HASH: { http: 400, message: 'Error! Invalid transaction hash format' },
  INVALID_ADDRESS: { http: 400, message: 'Error! Invalid address format' },
  INVALID_REQUEST: { http: 400, message: 'Error! Invalid request' },
  EXECUTION_FAILED: { http: 400, message: 'Error! Transaction execution failed' },
  UNAUTHORIZED: { http: 401, message: 'Unauthorized' },
  TOKEN_EXPIRED: { http: 401, message: 'Token expired' },
  INVALID_API_KEY: { http: 401, message: 'Invalid API key' },
  INVALID_CREDENTIALS: { http: 401, message: 'Error! Invalid email or password' },
  FORBIDDEN: { http: 403, message: 'Forbidden: insufficient scope' },
  BLOCK_NOT_FOUND: { http: 404, message: 'Error! Block not found' },
  TRANSACTION_NOT_FOUND: { http: 404, message: 'Error! Transaction not found' },
  ENDPOINT_NOT_FOUND: { http: 404, message: 'Error! Endpoint not found' },
  API_KEY_NOT_FOUND: { http: 404, message: 'Error! API key not found' },
  USER_NOT_FOUND: { http: 404, message: 'Error! User not found' },
  TOKEN_NOT_FOUND: { http: 404, message: 'Error! Token contract not found' },
  CONTRACT_NOT_FOUND: { http: 404, message: 'Error! Contract not found' },
  CONTRACT_NOT_VERIFIED: { http: 404, message: 'Error! Contract source code not verified' },
  METADATA_NOT_FOUND: { http: 404, message: 'Error! Metadata not found' },
  CHART_NOT_FOUND: { http: 404, message: 'Error! Chart not found' },
  LABEL_NOT_FOUND: { http: 404, message: 'Error! Label not found' },
  QUERY_TOO_LARGE: { http: 400, message: 'Error! Query reads too many records: narrow the block range' },
  COMPILER_NOT_AVAILABLE: { http: 400, message: 'Error! Compiler version not available' },
  COMPILATION_FAILED: { http: 400, message: 'Error! Compilation failed' },
  BYTECODE_MISMATCH: { http: 400, message: 'Error! Bytecode does not match' },
  EMAIL_TAKEN: { http: 409, message: 'Error! Email already registered' },
  API_KEY_LIMIT: { http: 409, message: 'Error! API key limit reached' },
  WATCHLIST_LIMIT: { http: 409, message: 'Error! Watch list limit reached' },
  WEBHOOK_NOT_FOUND: { http: 404, message: 'Error! Webhook not found' },
  WEBHOOK_DELIVERY_NOT_FOUND: { http: 404, message: 'Error! Webhook delivery not found' },
  WEBHOOK_LIMIT: { http: 409, message: 'Error! Webhook limit reached' },
  WEBHOOK_ADDRESS_LIMIT: { http: 409, message: 'Error! Watched address limit reached' },
  PAYLOAD_TOO_LARGE: { http: 413, message: 'Error! Request body too large' },
  HEADERS_TOO_LARGE: { http: 431, message: 'Error! Request header fields too large' },
  RATE_LIMITED: { http: 429, message: 'Max rate limit reached' },
  INTERNAL: { http: 500, message: 'Error! Internal server error' },
  UPSTREAM_UNAVAILABLE: { http: 503, message: 'Error! Upstream node unavailable' },
  TRACING_UNAVAILABLE: { http: 501, message: 'Error! Transaction tracing is not available on the upstream node' },
  SERVICE_DOWN: { http: 503, message: 'Error! Service unavailable' },
} as const satisfies Record<string, { http: number; message: string }>;

/** Every error code ChainLens answers. */
export type ErrorCode = keyof typeof ERROR_TABLE;
