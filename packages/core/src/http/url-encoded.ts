/**
 * `a=1&b=2` (a query string or an `application/x-www-form-urlencoded` body) to an object; a
 * repeated key keeps its first value.
 */
export function parseUrlEncoded(text: string): Record<string, string> {
  const values: Record<string, string> = {};
  if (text === '') return values;
  for (const [key, value] of new URLSearchParams(text)) {
    if (!(key in values)) values[key] = value;
  }
  return values;
}

/** Whether a `content-type` header names a form body (`application/x-www-form-urlencoded`, any parameters). */
export function isFormContentType(contentType: string | string[] | undefined): boolean {
  if (typeof contentType !== 'string') return false;
  const semicolon = contentType.indexOf(';');
  return (semicolon === -1 ? contentType : contentType.slice(0, semicolon)).trim().toLowerCase() === 'application/x-www-form-urlencoded';
}
