import type { ExplorerError } from '../../errors/index.js';
import type { ResponseFormat } from '../../http/index.js';
import { JsonArrayText } from '../../records/json-array-text.js';
import { notOk, type EtherscanAnswer } from './answers.js';

const JSON_HEADERS: Readonly<Record<string, string>> = Object.freeze({ 'content-type': 'application/json; charset=utf-8' });

/** Etherscan's words for the errors every ChainLens route can raise, where they differ from ours. */
const ETHERSCAN_REASONS: Partial<Record<ExplorerError['code'], string>> = {
  INVALID_API_KEY: 'Invalid API Key',
  UNAUTHORIZED: 'Missing/Invalid API Key',
  CONTRACT_NOT_VERIFIED: 'Contract source code not verified',
  QUERY_TOO_LARGE: 'Query Timeout occured. Please select a smaller result dataset',
};

/**
 * Etherscan's HTTP semantics: every answer is HTTP 200, the handler's body as it is, and every
 * error (credentials, rate limits, input, the handler's own) `{status: '0', message: 'NOTOK',
 * result: reason}`, where clients look for texts such as `Max rate limit reached`.
 */
export const etherscanFormat: ResponseFormat = {
  success: (body) => ({ status: 200, headers: JSON_HEADERS, body: answerText(body) }),
  error: (error) => ({ status: 200, headers: JSON_HEADERS, body: JSON.stringify(notOk(ETHERSCAN_REASONS[error.code] ?? error.message)) }),
};

/** `body` as JSON; an answer whose result is a {@link JsonArrayText} embeds its text as it is, as `JSON.stringify` would write the array. */
function answerText(body: unknown): string {
  if (typeof body === 'object' && body !== null && (body as EtherscanAnswer).result instanceof JsonArrayText && Object.keys(body).length === 3) {
    const { status, message, result } = body as EtherscanAnswer<JsonArrayText>;
    return `{"status":${JSON.stringify(status)},"message":${JSON.stringify(message)},"result":${result.text}}`;
  }
  return JSON.stringify(body);
}
