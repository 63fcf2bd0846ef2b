import {
  CONNECT_FIELDS,
  customToken,
  fieldNameProblems,
  MAX_TEMPLATE_LENGTH,
  renderTemplate,
  templateProblems,
  TOKEN_ALGORITHMS,
  TOKEN_PLACEHOLDERS,
  TokenValues,
  usesSecret,
} from './customization-rules';

const VALUES: TokenValues = {
  user_key: 'CARD-KEY-1',
  serial: 'DEVICE-9',
  program_id: '48213907',
  timestamp: '1767225600',
  expires_at: '2026-12-31 23:59:59',
  nonce: 'n-1',
  device_limit: '3',
  secret: 's3cret',
};

describe('customization rules (decisions §8)', () => {
  describe('the whitelists', () => {
    it('lists exactly the renameable Connect fields', () => {
      expect([...CONNECT_FIELDS].sort()).toEqual(
        [
          'status',
          'code',
          'reason',
          'data',
          'request_id',
          'token',
          'expires_at',
          'device_limit',
          'server_time',
          'machine_code',
          'announcement',
        ].sort(),
      );
    });

    it('lists exactly the template placeholders', () => {
      expect([...TOKEN_PLACEHOLDERS].sort()).toEqual([
        'device_limit',
        'expires_at',
        'nonce',
        'program_id',
        'secret',
        'serial',
        'timestamp',
        'user_key',
      ]);
    });

    it('offers exactly md5, sha256 and hmac_sha256 and nothing that runs custom code', () => {
      expect([...TOKEN_ALGORITHMS].sort()).toEqual(['hmac_sha256', 'md5', 'sha256']);
    });
  });

  describe(fieldNameProblems.name, () => {
    it('accepts an empty map and a rename of every field to a fresh name', () => {
      expect(fieldNameProblems({})).toEqual([]);
      expect(fieldNameProblems(Object.fromEntries(CONNECT_FIELDS.map((f, i) => [f, `f${i}_x`])))).toEqual([]);
    });

    it('accepts renaming a field to its own name', () => {
      expect(fieldNameProblems({ status: 'status', data: 'payload' })).toEqual([]);
    });

    it.each([
      ['a letter', 'a'],
      ['an underscore start', '_ok'],
      ['32 characters', 'A'.repeat(32)],
      ['mixed case with digits', 'Ok_2'],
    ])('accepts a target of %s', (_label, target) => {
      expect(fieldNameProblems({ reason: target })).toEqual([]);
    });

    it.each([
      ['a leading digit', '1abc'],
      ['a hyphen', 'a-b'],
      ['a dot', 'a.b'],
      ['a space', 'a b'],
      ['33 characters', 'A'.repeat(33)],
      ['the empty string', ''],
      ['a non-ASCII letter', 'çode'],
      ['a number', 5],
      ['null', null],
      ['an object', { x: 1 }],
    ])('refuses a target of %s', (_label, target) => {
      const problems = fieldNameProblems({ reason: target });
      expect(problems).toHaveLength(1);
      expect(problems[0]).toContain('field_names.reason');
    });

    it('refuses a target that is another default field name', () => {
      for (const target of CONNECT_FIELDS.filter((f) => f !== 'status')) {
        expect(fieldNameProblems({ status: target })).toEqual([expect.stringContaining('another default field name')]);
      }
    });

    it('refuses error_id as a target: platform faults carry it, and the renamed field would be lost', () => {
      expect(fieldNameProblems({ reason: 'error_id' })).toEqual([expect.stringContaining('field_names.reason')]);
    });

    it.each([
      '__proto__',
      'constructor',
      'prototype',
      'toString',
      'hasOwnProperty',
      'valueOf',
      'isPrototypeOf',
      '__defineGetter__',
    ])('refuses %s as a target: every JavaScript object has it, so the renamed field would vanish', (target) => {
      expect(fieldNameProblems({ status: target })).toEqual([expect.stringContaining('field_names.status')]);
      expect(fieldNameProblems({ data: target })).toEqual([expect.stringContaining('built-in JavaScript object property')]);
    });

    it('refuses every name of Object.prototype as a target', () => {
      for (const target of Object.getOwnPropertyNames(Object.prototype))
        expect(fieldNameProblems({ reason: target })).toHaveLength(1);
    });

    it('refuses one target used twice', () => {
      expect(fieldNameProblems({ status: 'ok', code: 'ok' })).toEqual([expect.stringContaining('used twice')]);
    });

    it('refuses a field that cannot be renamed, listing the allowed fields', () => {
      for (const field of ['error_id', 'msg', 'success', 'Status', '__proto__', 'constructor']) {
        const problems = fieldNameProblems(JSON.parse(`{"${field}":"x"}`));
        expect(problems).toHaveLength(1);
        expect(problems[0]).toContain(`"${field}"`);
        for (const allowed of CONNECT_FIELDS) expect(problems[0]).toContain(allowed);
      }
    });

    it('reports every problem of a map, not only the first', () => {
      expect(fieldNameProblems({ status: 'code', reason: '1x', nope: 'y' })).toHaveLength(3);
    });
  });

  describe(templateProblems.name, () => {
    it('accepts every whitelisted placeholder and free text around them', () => {
      expect(templateProblems(TOKEN_PLACEHOLDERS.map((p) => `<${p}>={${p}}`).join('&'))).toEqual([]);
      expect(templateProblems('no placeholders at all')).toEqual([]);
    });

    it('accepts a template of exactly the maximum length and refuses one longer, and the empty one', () => {
      expect(MAX_TEMPLATE_LENGTH).toBe(512);
      expect(templateProblems('x'.repeat(512))).toEqual([]);
      expect(templateProblems('x'.repeat(513))).toHaveLength(1);
      expect(templateProblems('')).toHaveLength(1);
    });

    it.each([
      '{foo}',
      '{USER_KEY}',
      '{ user_key }',
      '{}',
      '{constructor}',
      '{__proto__}',
      '{toString}',
      '{user_key.length}',
      '{process.env}',
    ])('refuses the unknown placeholder %s and lists the allowed ones', (placeholder) => {
      const problems = templateProblems(`a${placeholder}b`);
      expect(problems).toHaveLength(1);
      expect(problems[0]).toContain('unknown placeholder');
      for (const p of TOKEN_PLACEHOLDERS) expect(problems[0]).toContain(`{${p}}`);
    });

    it('reports each unknown placeholder', () => {
      expect(templateProblems('{a}{user_key}{b}')).toHaveLength(2);
    });
  });

  describe(usesSecret.name, () => {
    it('is true only where the template names {secret}', () => {
      expect(usesSecret('{user_key}{secret}')).toBe(true);
      expect(usesSecret('{user_key}secret')).toBe(false);
    });
  });

  describe(renderTemplate.name, () => {
    it('replaces every whitelisted placeholder, every time it appears', () => {
      expect(
        renderTemplate(
          '{user_key}|{serial}|{program_id}|{timestamp}|{expires_at}|{nonce}|{device_limit}|{secret}|{user_key}',
          VALUES,
        ),
      ).toBe('CARD-KEY-1|DEVICE-9|48213907|1767225600|2026-12-31 23:59:59|n-1|3|s3cret|CARD-KEY-1');
    });

    it('leaves text without placeholders as it is', () => {
      expect(renderTemplate('plain $1 $& \\n %s ${user_key}', VALUES)).toBe('plain $1 $& \\n %s $CARD-KEY-1');
    });

    it.each([
      ['an unknown name', '{foo}'],
      ['an inherited object property', '{constructor}'],
      ['the prototype', '{__proto__}'],
      ['a method name', '{toString}'],
      ['hasOwnProperty', '{hasOwnProperty}'],
      ['a property path', '{user_key.length}'],
      ['an expression', '{1+1}'],
      ['an empty pair', '{}'],
    ])('does not interpret %s: it stays literal', (_label, text) => {
      expect(renderTemplate(`<${text}>`, VALUES)).toBe(`<${text}>`);
    });

    it('does not expand placeholders that appear inside the values', () => {
      const values = { ...VALUES, user_key: '{serial}', serial: '$&$1$$' };
      expect(renderTemplate('{user_key}/{serial}', values)).toBe('{serial}/$&$1$$');
    });

    it('renders the inner placeholder of doubled braces and keeps the outer ones', () => {
      expect(renderTemplate('{{user_key}}', VALUES)).toBe('{CARD-KEY-1}');
    });

    it('renders an empty nonce as the empty string', () => {
      expect(renderTemplate('[{nonce}]', { ...VALUES, nonce: '' })).toBe('[]');
    });
  });

  describe(customToken.name, () => {
    // Published test vectors: RFC 1321 (MD5), FIPS 180-2 (SHA-256), RFC 4231 case 2 (HMAC-SHA256).
    it('md5 is lowercase hex MD5 of the rendered text', () => {
      expect(customToken('md5', 'abc', null)).toBe('900150983cd24fb0d6963f7d28e17f72');
      expect(customToken('md5', '', null)).toBe('d41d8cd98f00b204e9800998ecf8427e');
    });

    it('sha256 is lowercase hex SHA-256 of the rendered text', () => {
      expect(customToken('sha256', 'abc', null)).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    });

    it('hmac_sha256 is lowercase hex HMAC-SHA256 keyed with the secret', () => {
      expect(customToken('hmac_sha256', 'what do ya want for nothing?', 'Jefe')).toBe(
        '5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843',
      );
    });

    it('md5 and sha256 ignore a secret that is not in the template', () => {
      expect(customToken('md5', 'abc', 'key')).toBe('900150983cd24fb0d6963f7d28e17f72');
      expect(customToken('sha256', 'abc', 'key')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
    });

    it('hashes the UTF-8 bytes of non-ASCII text', () => {
      expect(customToken('md5', 'é', null)).toBe('66ddcd97cfdeabb2f6fb8a999b4bc76f');
    });

    it('hmac_sha256 refuses to run without a secret', () => {
      expect(() => customToken('hmac_sha256', 'abc', null)).toThrow();
      expect(() => customToken('hmac_sha256', 'abc', '')).toThrow();
    });
  });
});
