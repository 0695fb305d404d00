import { describe, expect, it } from 'vitest';
import { csvField, csvRow } from './csv.js';

describe('CSV fields and rows (RFC 4180)', () => {
  it('leaves plain text alone, empties null, quotes commas, quotes and line breaks with quotes doubled', () => {
    expect(csvField('0xabc')).toBe('0xabc');
    expect(csvField(null)).toBe('');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('say "hi"')).toBe('"say ""hi"""');
    expect(csvField('one\ntwo')).toBe('"one\ntwo"');
    expect(csvRow(['a', null, 'b,c'])).toBe('a,,"b,c"\r\n');
  });

  it('neutralises what a spreadsheet would run as a formula', () => {
    for (const formula of ['=1+1', '+1', '-1', '@SUM(A1)', '\t=1', '\r=1']) expect(csvField(formula).replace(/^"/, '')).toMatch(/^'/);
    expect(csvField('=HYPERLINK("http://x","y")')).toBe('"\'=HYPERLINK(""http://x"",""y"")"');
    expect(csvField('a=1')).toBe('a=1');
  });

  it('neutralises a formula behind leading spaces, tabs or line breaks, and a leading NUL', () => {
    for (const formula of [' =1+1', '  +1', ' \t-1', '\t @SUM(A1)', '\n=1', '\u00a0=1', '\u0000x']) expect(csvField(formula).replace(/^"/, ''), JSON.stringify(formula)).toMatch(/^'/);
    expect(csvField('  =1,2')).toBe(`"'  =1,2"`);
    expect(csvField(' a=1')).toBe(' a=1');
    expect(csvField('   ')).toBe('   ');
  });
});
