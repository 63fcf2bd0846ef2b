import {
  CARD_CODE_ALPHABET,
  CARD_CODE_LENGTH,
  CARD_KEY_ALPHABETS,
  CARD_PREFIX_PATTERN,
  CardCodeGenerator,
  generateCardCode,
  keyBits,
  keyShapeProblem,
} from './card-codes';

describe(generateCardCode.name, () => {
  it('uses 31 unambiguous characters: no 0, O, 1, I or L', () => {
    expect(CARD_CODE_ALPHABET).toHaveLength(31);
    expect(new Set(CARD_CODE_ALPHABET).size).toBe(31);
    for (const ambiguous of ['0', 'O', '1', 'I', 'L']) expect(CARD_CODE_ALPHABET).not.toContain(ambiguous);
  });

  it('draws 20 characters from the alphabet after the prefix', () => {
    const body = new RegExp(`^[${CARD_CODE_ALPHABET}]{${CARD_CODE_LENGTH}}$`);
    expect(generateCardCode()).toMatch(body);
    const code = generateCardCode('VIP-2025');
    expect(code.startsWith('VIP-2025')).toBe(true);
    expect(code).toHaveLength('VIP-2025'.length + CARD_CODE_LENGTH);
    expect(code.slice('VIP-2025'.length)).toMatch(body);
  });

  it('maps each random index to its alphabet character', () => {
    let i = 0;
    const sequential = (max: number) => {
      expect(max).toBe(CARD_CODE_ALPHABET.length);
      return i++ % max;
    };
    expect(generateCardCode('p-', sequential)).toBe('p-' + CARD_CODE_ALPHABET.slice(0, 20));
    expect(generateCardCode('', () => 30)).toBe('9'.repeat(20));
  });

  it('gives distinct codes and reaches every character', () => {
    const codes = Array.from({ length: 10_000 }, () => generateCardCode());
    expect(new Set(codes).size).toBe(codes.length);
    const seen = new Set(codes.join(''));
    expect([...seen].sort().join('')).toBe([...CARD_CODE_ALPHABET].sort().join(''));
  });

  it('is what the injectable generator hands out', () => {
    expect(new CardCodeGenerator().next('AB')).toMatch(new RegExp(`^AB[${CARD_CODE_ALPHABET}]{20}$`));
  });
});

describe('CARD_PREFIX_PATTERN', () => {
  it.each(['', 'A', 'vip-2025', '0123456789abcdef'])('accepts %p', (prefix) =>
    expect(CARD_PREFIX_PATTERN.test(prefix)).toBe(true),
  );
  it.each(['0123456789abcdefg', 'a b', 'a_b', 'é', 'a\n'])('refuses %p', (prefix) =>
    expect(CARD_PREFIX_PATTERN.test(prefix)).toBe(false),
  );
});

describe('key shapes', () => {
  it('draws the length from the named alphabet', () => {
    expect(generateCardCode('', undefined, { length: 13, alphabet: 'digits' })).toMatch(/^\d{13}$/);
    expect(generateCardCode('H-', undefined, { length: 10, alphabet: 'hex_upper' })).toMatch(/^H-[0-9A-F]{10}$/);
    expect(new CardCodeGenerator().next('', { length: 8, alphabet: 'lower_digits' })).toMatch(/^[a-z0-9]{8}$/);
  });

  it('names alphabets of distinct characters, the default being the one codes always had', () => {
    expect(CARD_KEY_ALPHABETS.upper_digits_unambiguous).toBe(CARD_CODE_ALPHABET);
    for (const alphabet of Object.values(CARD_KEY_ALPHABETS)) expect(new Set(alphabet).size).toBe(alphabet.length);
  });

  it('refuses fewer than 40 bits and codes longer than the column', () => {
    expect(keyBits({ length: 20, alphabet: 'upper_digits_unambiguous' })).toBeCloseTo(99.1, 1);
    expect(keyShapeProblem('', { length: 13, alphabet: 'digits' })).toBeNull(); // 43.2 bits
    expect(keyShapeProblem('', { length: 12, alphabet: 'digits' })).toMatch(/39\.9 bits.*at least 13 characters/);
    expect(keyShapeProblem('', { length: 10, alphabet: 'hex_upper' })).toBeNull(); // exactly 40
    expect(keyShapeProblem('', { length: 8, alphabet: 'upper_digits_unambiguous' })).toMatch(/at least 9/);
    expect(keyShapeProblem('', { length: 64, alphabet: 'digits' })).toBeNull();
    expect(keyShapeProblem('AB', { length: 63, alphabet: 'digits' })).toMatch(/exceed the 64 characters/);
  });
});
