import type { HttpResponse, TextResponse } from './types.js';

const UTF8 = new TextDecoder();

/**
 * `response` with its body as text, for callers of `kernel.handle` that read answers rather than
 * write them out (a kept answer's body is bytes).
 */
export function asText(response: HttpResponse): TextResponse {
  return typeof response.body === 'string' ? (response as TextResponse) : { ...response, body: UTF8.decode(response.body) };
}
