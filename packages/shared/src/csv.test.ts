import { describe, expect, it } from 'vitest';
import {
  CSV_BOM,
  CsvSyntaxError,
  csvField,
  isBlankRecord,
  neutraliseFormula,
  parseCsv,
  restoreFormula,
  toCsv,
} from './csv.ts';

function syntaxError(text: string): CsvSyntaxError {
  try {
    parseCsv(text);
  } catch (error) {
    if (error instanceof CsvSyntaxError) return error;
    throw error;
  }
  throw new Error('expected a CsvSyntaxError');
}

describe('csv writer', () => {
  it('quotes only the fields that need it and doubles quotes inside', () => {
    expect(csvField('凍頂烏龍茶')).toBe('凍頂烏龍茶');
    expect(csvField('規格=75 g;包裝=罐裝')).toBe('規格=75 g;包裝=罐裝');
    expect(csvField('a,b')).toBe('"a,b"');
    expect(csvField('他說"好茶"')).toBe('"他說""好茶"""');
    expect(csvField('第一行\n第二行')).toBe('"第一行\n第二行"');
    expect(csvField('a\rb')).toBe('"a\rb"');
    expect(csvField(' 前後有空白 ')).toBe('" 前後有空白 "');
    expect(csvField(480)).toBe('480');
    expect(csvField(null)).toBe('');
    expect(csvField(undefined)).toBe('');
  });

  it('ends every record with CRLF and starts with a UTF-8 BOM for Excel', () => {
    const text = toCsv([
      ['sku', 'name'],
      ['DD-S', '凍頂烏龍茶'],
    ]);
    expect(text).toBe(`${CSV_BOM}sku,name\r\nDD-S,凍頂烏龍茶\r\n`);
    expect(text.charCodeAt(0)).toBe(0xfeff);
    expect(toCsv([['a']], { bom: false })).toBe('a\r\n');
  });
});

describe('csv parser', () => {
  it('reads plain records with CRLF, LF or CR line breaks, and ignores the BOM', () => {
    expect(parseCsv(`${CSV_BOM}a,b\r\nc,d\r\n`)).toEqual([
      ['a', 'b'],
      ['c', 'd'],
    ]);
    expect(parseCsv('a,b\nc,d')).toEqual([
      ['a', 'b'],
      ['c', 'd'],
    ]);
    expect(parseCsv('a,b\rc,d\r')).toEqual([
      ['a', 'b'],
      ['c', 'd'],
    ]);
  });

  it('keeps empty fields, a trailing comma, and blank lines in the middle', () => {
    expect(parseCsv('a,,c\r\n,\r\n')).toEqual([
      ['a', '', 'c'],
      ['', ''],
    ]);
    expect(parseCsv('a,')).toEqual([['a', '']]);
    expect(parseCsv('a\r\n\r\nb\r\n')).toEqual([['a'], [''], ['b']]);
    expect(isBlankRecord([''])).toBe(true);
    expect(isBlankRecord([' ', ''])).toBe(true);
    expect(isBlankRecord(['', 'x'])).toBe(false);
  });

  it('gives nothing for an empty text', () => {
    expect(parseCsv('')).toEqual([]);
    expect(parseCsv(CSV_BOM)).toEqual([]);
  });

  it('reads quoted fields with commas, doubled quotes and line breaks inside', () => {
    const text = 'name,note\r\n"白瓷,品茗杯","他說""好""",\r\n"第一行\r\n第二行",x\r\n"",""\r\n';
    expect(parseCsv(text)).toEqual([
      ['name', 'note'],
      ['白瓷,品茗杯', '他說"好"', ''],
      ['第一行\r\n第二行', 'x'],
      ['', ''],
    ]);
  });

  it('keeps spaces as they are (it is the caller who trims)', () => {
    expect(parseCsv(' a , b ')).toEqual([[' a ', ' b ']]);
    expect(parseCsv('" a "')).toEqual([[' a ']]);
  });

  it('round-trips whatever the writer writes', () => {
    const records = [
      ['product_slug', 'options', 'note'],
      ['dong-ding', '規格=75 g;包裝=罐裝', '他說"好茶",\r\n再來一杯'],
      ['', ' 空白 ', '\n'],
      ['x', 'a\rb', '""'],
    ];
    expect(parseCsv(toCsv(records))).toEqual(records);
  });

  it('counts rows by record, not by line, when a field holds a line break', () => {
    const error = syntaxError('a,b\r\n"多行\r\n內容",ok\r\nc,d"e\r\n');
    expect(error.row).toBe(3);
    expect(error.column).toBe(2);
    expect(error.line).toBe(4);
    expect(error.message).toContain('第 3 列第 2 欄');
  });

  it('refuses a quote inside an unquoted field, naming row and column', () => {
    const error = syntaxError('sku,name\r\nDD-S,凍頂"烏龍"\r\n');
    expect([error.row, error.column, error.line]).toEqual([2, 2, 2]);
    expect(error.message).toBe(
      '第 2 列第 2 欄含有引號，這個欄位需要整個用引號包起來，欄位中的引號寫成兩個（""）。',
    );
  });

  it('refuses text after a closing quote', () => {
    const error = syntaxError('a,"b"c,d\n');
    expect([error.row, error.column]).toEqual([1, 2]);
    expect(error.message).toContain('結束引號後面還有文字');
  });

  it('refuses a quote that is never closed, naming where it opened', () => {
    const error = syntaxError('a,b\nc,"never closed\nmore\n');
    expect([error.row, error.column, error.line]).toEqual([2, 2, 2]);
    expect(error.message).toBe('第 2 列第 2 欄的引號沒有結束。');
  });
});

describe('spreadsheet formulas', () => {
  it('puts an apostrophe before text a spreadsheet would run, and takes exactly that one off again', () => {
    for (const text of ['=SUM(1,2)', '+886912345678', '-5', '@cmd', '\tx', '\rx', "'=x", "''+x"]) {
      const safe = neutraliseFormula(text);
      expect(safe, text).toBe(`'${text}`);
      expect(restoreFormula(safe), text).toBe(text);
    }
    for (const text of ['凍頂烏龍茶', "it's", "'quoted'", 'a=b', '規格=75 g', '']) {
      expect(neutraliseFormula(text), text).toBe(text);
      expect(restoreFormula(text), text).toBe(text);
    }
  });

  it('toCsv neutralises text cells unless told to keep formulas, and never numbers', () => {
    expect(toCsv([['=1+1', -5, '@x', '凍頂']], { bom: false })).toBe("'=1+1,-5,'@x,凍頂\r\n");
    expect(toCsv([['=1+1']], { bom: false, keepFormulas: true })).toBe('=1+1\r\n');
    const text = toCsv([['=HYPERLINK("http://evil.example","點我")', '\tTab']], { bom: false });
    expect(text).toBe(`"'=HYPERLINK(""http://evil.example"",""點我"")",'\tTab\r\n`);
    expect(parseCsv(text)[0]!.map(restoreFormula)).toEqual([
      '=HYPERLINK("http://evil.example","點我")',
      '\tTab',
    ]);
  });
});
