import { findInputProblem, hasBrokenPercentEncoding, MAX_INPUT_DEPTH } from './input-rules';

describe('findInputProblem', () => {
  it('accepts ordinary text, numbers, booleans, nested objects and non-ASCII letters', () => {
    expect(
      findInputProblem({ user_key: 'ABCD-1234', serial: 'dév-机器-✓', n: 3, ok: true, nested: { list: ['a', 'b'] } }, 'body'),
    ).toBeNull();
    expect(findInputProblem({ emoji: '😀 paired surrogates are fine' }, 'body')).toBeNull();
  });

  it.each([
    ['NUL', 'a\u0000b'],
    ['a C0 control', 'a\u0007b'],
    ['DEL', 'a\u007fb'],
    ['a C1 control', 'a\u0085b'],
    ['a lone high surrogate', 'a\ud800b'],
    ['a lone low surrogate', '\udc00'],
    ['a line break in a one-line field', 'a\nb'],
  ])('refuses %s in a one-line field, naming the field', (_name, value) => {
    expect(findInputProblem({ card: { machine_id: value } }, 'body')).toEqual({
      field: 'body.card.machine_id',
      reason: expect.any(String),
    });
  });

  it('lets line breaks and tabs into free-text fields, but never NUL', () => {
    expect(findInputProblem({ content: 'line 1\r\n\tline 2', changelog: 'a\nb', note: 'x\ny' }, 'body')).toBeNull();
    expect(findInputProblem({ content: 'a\u0000b' }, 'body')).toEqual({ field: 'body.content', reason: expect.any(String) });
  });

  it('checks array items under their field name', () => {
    expect(findInputProblem({ ids: ['ok', 'bad\u0000'] }, 'body')).toEqual({ field: 'body.ids[1]', reason: expect.any(String) });
  });

  it.each(['__proto__', 'constructor', 'prototype', 'a\u0000b'])('refuses the field name %j', (key) => {
    const body = JSON.parse(`{${JSON.stringify(key)}: {"x": 1}}`);
    expect(findInputProblem(body, 'body')).toEqual({ field: `body.${key}`, reason: 'is not an acceptable field name' });
  });

  it(`refuses nesting deeper than ${MAX_INPUT_DEPTH} without recursion (100,000 levels)`, () => {
    const deep = JSON.parse('['.repeat(100_000) + ']'.repeat(100_000));
    expect(findInputProblem(deep, 'body')?.reason).toMatch(/deeper/);
    let ok: unknown = 'leaf';
    for (let i = 0; i < MAX_INPUT_DEPTH; i++) ok = { a: ok };
    expect(findInputProblem(ok, 'body')).toBeNull();
    expect(findInputProblem({ wrap: ok }, 'body')?.reason).toMatch(/deeper/);
  });
});

describe('hasBrokenPercentEncoding', () => {
  it('accepts well-formed UTF-8 escapes, plus signs and text without escapes', () => {
    expect(hasBrokenPercentEncoding('user_key=AB%2BC&serial=d%C3%A9v+1')).toBe(false);
    expect(hasBrokenPercentEncoding('plain=text&x=')).toBe(false);
  });

  it.each(['a=%FF', 'a=%C3', 'a=%ED%A0%80', 'a=%zz', 'a=100%'])('refuses %s', (text) => {
    expect(hasBrokenPercentEncoding(text)).toBe(true);
  });
});
