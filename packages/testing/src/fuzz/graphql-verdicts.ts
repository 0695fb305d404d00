import { ERROR_TABLE } from '@chainlens/core';
import { envelopeProblem, type RawAnswer } from './verdicts.js';

const STACK_TRACE = /\n\s+at |\.[cm]?[jt]s:\d+/;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * What is wrong with one GraphQL result, or `null`: `{data?, errors?, extensions?}` with at least
 * one of data and errors, each error an object with a message string, never the masked internal
 * error nor a stack trace. `broke` names the limit the document was built past: the result must
 * then hold no data (nothing ran) and an error naming that limit.
 */
export function graphqlResultProblem(result: unknown, broke?: string): string | null {
  if (!isObject(result)) return 'not a JSON object';
  const keys = Object.keys(result);
  if (keys.some((key) => key !== 'data' && key !== 'errors' && key !== 'extensions')) return `keys ${keys.join()}`;
  if (!('data' in result) && !('errors' in result)) return 'neither data nor errors';
  const errors = result.errors;
  if (errors !== undefined) {
    if (!Array.isArray(errors) || errors.length === 0) return 'errors is not a non-empty array';
    for (const error of errors) {
      if (!isObject(error) || typeof error.message !== 'string' || error.message === '') return `malformed error ${JSON.stringify(error).slice(0, 120)}`;
      if (error.message === ERROR_TABLE.INTERNAL.message) return 'an internal error';
      if (STACK_TRACE.test(error.message)) return 'a stack trace in an error';
    }
  }
  if (broke === undefined) return null;
  if ('data' in result) return `data for a document past ${broke}: it ran`;
  const named = (errors as { extensions?: { limit?: unknown } }[]).some((error) => error.extensions?.limit === broke);
  return named ? null : `no error names the limit ${broke}`;
}

function parse(text: string): { value: unknown } | null {
  try {
    return { value: JSON.parse(text) };
  } catch {
    return null;
  }
}

/**
 * What is wrong with an HTTP answer of `/graphql`, or `null`: never 5xx, always JSON, a GraphQL
 * result (or, for a batch, an array of them) whatever was sent.
 */
export function graphqlAnswerProblem(answer: RawAnswer, expect: { batch?: number; broke?: (string | undefined)[] } = {}): string | null {
  if (answer.status >= 500 || answer.status < 0) return `HTTP ${answer.status}`;
  // Node refuses a URL past its header limit before any route is known: decisions.md's envelope.
  if (answer.status === 431) return envelopeProblem(answer);
  const parsed = parse(answer.text);
  if (!parsed) return 'the body is not JSON';
  const body = parsed.value;
  if (Array.isArray(body)) {
    if (expect.batch === undefined || body.length !== expect.batch) return `an array of ${body.length} for ${expect.batch ?? 'no'} batch`;
    for (const [i, result] of body.entries()) {
      const problem = graphqlResultProblem(result, expect.broke?.[i]);
      if (problem) return `entry ${i}: ${problem}`;
    }
    return answer.status === 200 ? null : `a batch answered with HTTP ${answer.status}`;
  }
  // A single result: a batch is only answered whole when refused whole.
  return graphqlResultProblem(body, expect.batch === undefined ? expect.broke?.[0] : undefined);
}
