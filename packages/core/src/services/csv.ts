/**
 * CSV as RFC 4180 writes it: fields separated by commas, records ending in CRLF, a field holding
 * a comma, a quote or a line break quoted with its quotes doubled. A field that a spreadsheet
 * would run as a formula (a token name or a label can say anything) is prefixed with `'`, as OWASP
 * advises, so it shows as text: one starting with a tab, a carriage return or a NUL (OWASP ASVS
 * 1.2.10), or whose first character past any leading whitespace is `=`, `+`, `-` or `@`
 * (spreadsheets skip the whitespace and still run ` =1+1`).
 */

const FORMULA_START = /^(?:[\t\r\0]|\s*[=+\-@])/;
const NEEDS_QUOTES = /[",\r\n]/;

/** One field, neutralised and quoted where needed; `null` is an empty field. */
export function csvField(value: string | null): string {
  if (value === null) return '';
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** One record (a row) with its CRLF. */
export function csvRow(fields: readonly (string | null)[]): string {
  return `${fields.map(csvField).join(',')}\r\n`;
}
