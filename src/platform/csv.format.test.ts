import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { csvDocument, csvField } from './csv.format.ts';

/** Python's csv module reads the document back as a spreadsheet import would see the cells. */
function readWithPython(text: string): string[][] {
  const script =
    'import csv, json, sys\n' +
    'text = sys.stdin.buffer.read().decode("utf-8-sig")\n' +
    'print(json.dumps(list(csv.reader(text.splitlines(keepends=True)))))\n';
  return JSON.parse(execFileSync('python3', ['-c', script], { input: text }).toString('utf8')) as string[][];
}

describe('the shared CSV writer', () => {
  it('neutralises text that a spreadsheet would run as a formula (OWASP): a leading quote, the field quoted', () => {
    expect(csvField('=HYPERLINK("http://evil.test","click")')).toBe('"\'=HYPERLINK(""http://evil.test"",""click"")"');
    expect(csvField('+1+1')).toBe(`"'+1+1"`);
    expect(csvField('-2+3')).toBe(`"'-2+3"`);
    expect(csvField('@SUM(A1:A2)')).toBe(`"'@SUM(A1:A2)"`);
    expect(csvField('\t=1+1')).toBe(`"'\t=1+1"`);
    expect(csvField('\r=1+1')).toBe(`"'\r=1+1"`);
  });

  it('leaves numbers, booleans, null and ordinary text as they were', () => {
    expect(csvField(-5)).toBe('-5');
    expect(csvField(-12.5)).toBe('-12.5');
    expect(csvField(true)).toBe('true');
    expect(csvField(null)).toBe('');
    expect(csvField('shop = main')).toBe('shop = main');
    expect(csvField('2026-05-01T00:00:00.000Z')).toBe('2026-05-01T00:00:00.000Z');
    expect(csvField('a, "b"')).toBe('"a, ""b"""');
  });

  it('reads back with Python’s csv module: the text with its leading quote, the numbers as written', () => {
    const doc = csvDocument(
      ['name', 'trend_percent', 'title'],
      [
        ['=HYPERLINK("http://evil.test","click")', -5, '@cmd|" /C calc"!A0'],
        ['\tindented, "quoted"', -0.25, '-'],
        ['plain', 3, null],
      ],
    );
    expect(readWithPython(doc)).toEqual([
      ['name', 'trend_percent', 'title'],
      [`'=HYPERLINK("http://evil.test","click")`, '-5', `'@cmd|" /C calc"!A0`],
      [`'\tindented, "quoted"`, '-0.25', `'-`],
      ['plain', '3', ''],
    ]);
  });
});
