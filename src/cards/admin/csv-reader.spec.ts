import { CsvItem, CsvReader, CsvTooLongError, readCsv } from './csv-reader';

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
    expect(readCsv('a\r\n"",\r\n')).toEqual({
      records: [
        { line: 1, fields: ['a'] },
        { line: 2, fields: ['', ''] },
      ],
      errors: [],
    });
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

describe(CsvReader.name, () => {
  const samples = [
    '\ufeffa,b,c\r\n1,"x,""y""\nz",3\n\n4,5,6',
    'a\r\n"",\r\n',
    'a,b\n1,x"y\n2,"q"r\n3,ok\n4,"open\n5,6',
    'a,b\r\n"q"\r\nlone\rcr,"x"\rz\n"end"\r',
    'a,\r',
  ];

  it('reads a text fed in pieces of any size exactly as the whole text', () => {
    for (const text of samples) {
      for (const size of [1, 2, 3, 7]) {
        const reader = new CsvReader();
        const items: CsvItem[] = [];
        for (let i = 0; i < text.length; i += size) items.push(...reader.push(text.slice(i, i + size)));
        items.push(...reader.end());
        const whole = readCsv(text);
        expect([text, size, items.filter((x) => x.kind === 'record').map(({ line, fields }) => ({ line, fields }))]).toEqual([
          text,
          size,
          whole.records,
        ]);
        expect(items.filter((x) => x.kind === 'error').map(({ line, reason }) => ({ line, reason }))).toEqual(whole.errors);
      }
    }
    // A lone CR is text; after a closing quote only CRLF may follow.
    expect(readCsv('a,b\r\n"q"\r\nlone\rcr,"x"\rz\n"end"\r')).toEqual({
      records: [
        { line: 1, fields: ['a', 'b'] },
        { line: 2, fields: ['q'] },
      ],
      errors: [
        { line: 3, reason: 'text_after_quote' },
        { line: 4, reason: 'text_after_quote' },
      ],
    });
    expect(readCsv('a,\r')).toEqual({ records: [{ line: 1, fields: ['a', '\r'] }], errors: [] });
  });

  it('stops at the first character past a cell or a row cap, naming the line and the cell', () => {
    const caps = { cell: (i: number) => (i === 1 ? 10 : 4), record: 16 };
    const reader = new CsvReader(caps);
    expect(reader.push('ab,0123456789\n')).toEqual([{ kind: 'record', line: 1, fields: ['ab', '0123456789'] }]);
    expect(() => reader.push('"x\ny",01234567890')).toThrow(expect.objectContaining({ line: 2, field: 1, max: 10 }));
    expect(() => new CsvReader(caps).push('abcd,0123456789,x')).toThrow(
      expect.objectContaining({ line: 1, field: null, max: 16 }),
    );
    expect(() => new CsvReader(caps).push('abcde')).toThrow(CsvTooLongError);
  });
});
