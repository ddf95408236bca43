/**
 * A small RFC 4180 CSV writer and parser, with no dependencies (the console exports and imports
 * products with it; the web app may use it to preview a file).
 *
 * Writing: fields are joined with commas, records end with CRLF, a field is quoted when it holds a
 * comma, a double quote, CR or LF, or starts or ends with a space (quotes inside are doubled).
 * Text that a spreadsheet would run as a formula gets a leading apostrophe (see neutraliseFormula).
 * Exports start with a UTF-8 byte-order mark, so Excel in Taiwan opens Chinese text correctly
 * instead of guessing Big5.
 *
 * Parsing: accepts CRLF, LF or a lone CR between records, a leading BOM, quoted fields with
 * doubled quotes and line breaks inside, and a missing final line break. Malformed input (a quote
 * inside an unquoted field, text after a closing quote, a quote never closed) throws
 * CsvSyntaxError naming the record (row) and field (column) as a spreadsheet counts them, from 1.
 */

export const CSV_BOM = '\uFEFF';
export const CSV_CONTENT_TYPE = 'text/csv; charset=utf-8';

export type CsvValue = string | number | boolean | null | undefined;

/** One field as CSV text (quoted only when it has to be). */
export function csvField(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  const text = String(value);
  if (/[",\r\n]/.test(text) || /^\s|\s$/.test(text)) return `"${text.replaceAll('"', '""')}"`;
  return text;
}

/**
 * Text a spreadsheet would run as a formula (it starts with =, +, -, @, a tab or CR, after any
 * apostrophes) gets one more leading apostrophe, so it opens as plain text. `restoreFormula`
 * takes exactly that apostrophe off again, so our own exports import back unchanged.
 */
export function neutraliseFormula(text: string): string {
  return /^'*[=+\-@\t\r]/.test(text) ? `'${text}` : text;
}

/** Undoes `neutraliseFormula` on a cell read back from one of our exports. */
export function restoreFormula(text: string): string {
  return /^'+[=+\-@\t\r]/.test(text) ? text.slice(1) : text;
}

/**
 * Records to CSV text: CRLF after every record, and a BOM first unless `bom: false`. Text cells
 * are made formula-safe with `neutraliseFormula` unless `keepFormulas: true` (numbers are left
 * as they are).
 */
export function toCsv(
  records: readonly (readonly CsvValue[])[],
  options: { bom?: boolean; keepFormulas?: boolean } = {},
): string {
  const cell = (value: CsvValue) =>
    csvField(typeof value === 'string' && !options.keepFormulas ? neutraliseFormula(value) : value);
  const body = records.map((r) => `${r.map(cell).join(',')}\r\n`).join('');
  return (options.bom === false ? '' : CSV_BOM) + body;
}

export class CsvSyntaxError extends Error {
  constructor(
    message: string,
    /** The record, from 1 (a spreadsheet's row number: a line break inside quotes does not count). */
    readonly row: number,
    /** The field in that record, from 1. */
    readonly column: number,
    /** The physical line of the text, from 1 (what a text editor shows). */
    readonly line: number,
  ) {
    super(message);
    this.name = 'CsvSyntaxError';
  }
}

/**
 * Parses CSV text into records of fields (strings, untrimmed). An empty text gives no records;
 * an empty line in the middle gives a record with one empty field (callers usually skip those).
 */
export function parseCsv(input: string): string[][] {
  const text = input.startsWith(CSV_BOM) ? input.slice(1) : input;
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let i = 0;
  let line = 1;
  const n = text.length;
  if (n === 0) return records;

  const endField = () => {
    record.push(field);
    field = '';
  };
  const endRecord = () => {
    endField();
    records.push(record);
    record = [];
  };
  /** Consumes a line break at i (CRLF, LF or CR); returns whether there was one. */
  const lineBreak = (): boolean => {
    const c = text[i];
    if (c === '\r') {
      i += text[i + 1] === '\n' ? 2 : 1;
      line++;
      return true;
    }
    if (c === '\n') {
      i++;
      line++;
      return true;
    }
    return false;
  };

  while (i < n) {
    const row = records.length + 1;
    const column = record.length + 1;
    if (text[i] === '"') {
      // A quoted field: runs to the closing quote; "" is a quote; commas and line breaks are text.
      const startLine = line;
      i++;
      let closed = false;
      while (i < n) {
        const c = text[i]!;
        if (c === '"') {
          if (text[i + 1] === '"') {
            field += '"';
            i += 2;
            continue;
          }
          i++;
          closed = true;
          break;
        }
        if (c === '\r' || c === '\n') {
          field += c === '\r' && text[i + 1] === '\n' ? '\r\n' : c;
          i += c === '\r' && text[i + 1] === '\n' ? 2 : 1;
          line++;
          continue;
        }
        field += c;
        i++;
      }
      if (!closed)
        throw new CsvSyntaxError(`第 ${row} 列第 ${column} 欄的引號沒有結束。`, row, column, startLine);
      if (i >= n) {
        endRecord();
        break;
      }
      if (text[i] === ',') {
        i++;
        endField();
        // A comma at the very end still opens one last empty field.
        if (i >= n) endRecord();
        continue;
      }
      if (lineBreak()) {
        endRecord();
        continue;
      }
      throw new CsvSyntaxError(
        `第 ${row} 列第 ${column} 欄的結束引號後面還有文字；欄位中的引號請寫成兩個（""）。`,
        row,
        column,
        line,
      );
    }

    // An unquoted field: up to the next comma or line break; a quote in it is malformed.
    while (i < n) {
      const c = text[i]!;
      if (c === ',' || c === '\r' || c === '\n') break;
      if (c === '"')
        throw new CsvSyntaxError(
          `第 ${row} 列第 ${column} 欄含有引號，這個欄位需要整個用引號包起來，欄位中的引號寫成兩個（""）。`,
          row,
          column,
          line,
        );
      field += c;
      i++;
    }
    if (i >= n) {
      endRecord();
      break;
    }
    if (text[i] === ',') {
      i++;
      endField();
      if (i >= n) endRecord();
      continue;
    }
    lineBreak();
    endRecord();
  }
  return records;
}

/** Whether a record holds nothing but empty fields (a blank spreadsheet row). */
export const isBlankRecord = (record: readonly string[]): boolean => record.every((f) => f.trim() === '');
