import { readCsv } from './csv-reader';

describe(readCsv.name, () => {
  it('reads quoted fields with commas, doubled quotes and line breaks, CRLF and LF, a BOM and blank lines', () => {
    expect(readCsv('\ufeffa,b,c\r\n1,"x,""y""\nz",3\n\n4,5,6')).toEqual({
      records: [
        { line: 1, fields: ['a', 'b', 'c'] },
        { line: 2, fields: ['1', 'x,"y"\nz', '3'] },
        { line: 5, fields: ['4', '5', '6'] },
      ],
      errors: [],
    });
    expect(readCsv('a\r\n"",\r\n')).toEqual({ records: [{ line: 1, fields: ['a'] }, { line: 2, fields: ['', ''] }], errors: [] });
    expect(readCsv('')).toEqual({ records: [], errors: [] });
  });

  it('reports each broken record by its line and goes on with the next line', () => {
    expect(readCsv('a,b\n1,x"y\n2,"q"r\n3,ok\n4,"open\n5,6')).toEqual({
      records: [
        { line: 1, fields: ['a', 'b'] },
        { line: 4, fields: ['3', 'ok'] },
      ],
      errors: [
        { line: 2, reason: 'quote_in_unquoted_field' },
        { line: 3, reason: 'text_after_quote' },
        { line: 5, reason: 'quote_not_closed' },
      ],
    });
  });
});
