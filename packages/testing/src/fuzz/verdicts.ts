import { ERROR_TABLE } from '@chainlens/core';

/** An HTTP answer as the fuzzers see it. */
export interface RawAnswer {
  status: number;
  text: string;
}

/** Success messages the envelope may carry besides `OK`. */
const SUCCESS_MESSAGES = new Set(['OK', 'Contract verification successful', 'Contract source code already verified']);
const HTTP_BY_MESSAGE = new Map<string, number>(Object.values(ERROR_TABLE).map((entry) => [entry.message, entry.http]));
const STACK_TRACE = /\n\s+at |\.[cm]?[jt]s:\d+/;

/** The HTTP status of an error message: a table message, or one followed by `: <detail>` (a field, a compiler's reason). */
function httpOf(message: string): number | undefined {
  const exact = HTTP_BY_MESSAGE.get(message);
  if (exact !== undefined) return exact;
  for (const [known, http] of HTTP_BY_MESSAGE) if (message.startsWith(`${known}: `)) return http;
  return undefined;
}

function parse(text: string): { value: unknown } | null {
  try {
    return { value: JSON.parse(text) };
  } catch {
    return null;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * What is wrong with a REST answer, or `null`: never 5xx, always exactly the envelope, `'1'` only
 * with a success, and an error's HTTP status the one decisions.md gives its message.
 */
export function envelopeProblem(answer: RawAnswer): string | null {
  if (answer.status >= 500) return `HTTP ${answer.status}`;
  if (STACK_TRACE.test(answer.text)) return 'a stack trace or file path in the body';
  const parsed = parse(answer.text);
  if (!parsed || !isObject(parsed.value)) return 'the body is not a JSON object';
  const body = parsed.value;
  if (Object.keys(body).sort().join() !== 'message,result,status') return `not the envelope (keys ${Object.keys(body).join()})`;
  if (typeof body.message !== 'string') return 'message is not a string';
  if (body.status === '1') return answer.status === 200 && SUCCESS_MESSAGES.has(body.message) ? null : `status '1' with HTTP ${answer.status} and message ${body.message}`;
  if (body.status !== '0') return `status ${JSON.stringify(body.status)}`;
  const expected = httpOf(body.message);
  if (expected === undefined) return `message ${JSON.stringify(body.message)} is not in decisions.md's table`;
  return expected === answer.status ? null : `message ${JSON.stringify(body.message)} answered with HTTP ${answer.status}, not ${expected}`;
}

/**
 * What is wrong with an answer of the Etherscan-compatible API, or `null`: HTTP 200 always, and
 * Etherscan's `{status, message, result}` or, for the `proxy` module, a JSON-RPC 2.0 response.
 */
export function etherscanProblem(answer: RawAnswer): string | null {
  if (answer.status !== 200) return `HTTP ${answer.status}`;
  if (STACK_TRACE.test(answer.text)) return 'a stack trace or file path in the body';
  const parsed = parse(answer.text);
  if (!parsed || !isObject(parsed.value)) return 'the body is not a JSON object';
  const body = parsed.value;
  if (body.jsonrpc === '2.0') return jsonRpcResponseProblem(body);
  if (body.status !== '0' && body.status !== '1') return `status ${JSON.stringify(body.status)}`;
  if (typeof body.message !== 'string' || !('result' in body)) return 'not the Etherscan envelope';
  return null;
}

/** JSON-RPC 2.0 error codes: the specification's, the server range, and geth's revert code 3. */
export function isJsonRpcErrorCode(code: unknown): boolean {
  return Number.isInteger(code) && ((code as number) === 3 || ((code as number) <= -32000 && (code as number) >= -32768));
}

/** What is wrong with one JSON-RPC 2.0 response object, or `null`. */
export function jsonRpcResponseProblem(response: unknown): string | null {
  if (!isObject(response) || response.jsonrpc !== '2.0') return 'not a JSON-RPC 2.0 response';
  if (!('id' in response) || !(response.id === null || typeof response.id === 'string' || typeof response.id === 'number')) return 'no valid id';
  const hasResult = 'result' in response;
  const hasError = 'error' in response;
  if (hasResult === hasError) return 'must hold exactly one of result and error';
  if (!hasError) return null;
  const error = response.error;
  if (!isObject(error) || !isJsonRpcErrorCode(error.code) || typeof error.message !== 'string') return `malformed error ${JSON.stringify(error)}`;
  return STACK_TRACE.test(error.message) ? 'a stack trace in the error' : null;
}
