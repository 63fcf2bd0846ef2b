import { CARD_CODE_ALPHABET, CARD_CODE_LENGTH, CARD_PREFIX_PATTERN, CardCodeGenerator, generateCardCode } from './card-codes';

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
