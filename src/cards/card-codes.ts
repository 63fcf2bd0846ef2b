import { Injectable } from '@nestjs/common';
import { randomInt } from 'node:crypto';

/** Card-key characters: no 0/O, 1/I/L, so a key read aloud or retyped from paper stays unambiguous. */
export const CARD_CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';

/** Random characters after the prefix: 20 of 31 symbols, about 99 bits. */
export const CARD_CODE_LENGTH = 20;

/**
 * The alphabets a card type may draw its codes from, by name. The default is the one codes always
 * had, so a type that names none makes the same codes as a batch made without a type.
 */
export const CARD_KEY_ALPHABETS = {
  upper_digits_unambiguous: CARD_CODE_ALPHABET,
  upper_digits: 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789',
  lower_digits: 'abcdefghijklmnopqrstuvwxyz0123456789',
  digits: '0123456789',
  hex_upper: '0123456789ABCDEF',
} as const;
export type CardKeyAlphabet = keyof typeof CARD_KEY_ALPHABETS;
export const CARD_KEY_ALPHABET_NAMES = Object.keys(CARD_KEY_ALPHABETS) as CardKeyAlphabet[];
export const DEFAULT_KEY_ALPHABET: CardKeyAlphabet = 'upper_digits_unambiguous';

export const MIN_KEY_LENGTH = 8;
export const MAX_KEY_LENGTH = 64;
/** The least entropy a code's random part may have: fewer bits are within reach of enumeration. */
export const MIN_KEY_BITS = 40;
/** The cards.code column: the prefix and the random characters together must fit it. */
export const MAX_CODE_LENGTH = 64;

/** The random part of a code: how many characters, from which alphabet. */
export interface CardKeyShape {
  length: number;
  alphabet: CardKeyAlphabet;
}

export const DEFAULT_KEY_SHAPE: CardKeyShape = { length: CARD_CODE_LENGTH, alphabet: DEFAULT_KEY_ALPHABET };

/** The entropy of a code's random part, in bits (the prefix adds none). */
export function keyBits(shape: CardKeyShape): number {
  return shape.length * Math.log2(CARD_KEY_ALPHABETS[shape.alphabet].length);
}

/** Why a prefix and key shape cannot make codes, or null when they can. */
export function keyShapeProblem(prefix: string, shape: CardKeyShape): string | null {
  const bits = keyBits(shape);
  if (bits < MIN_KEY_BITS) {
    const needed = Math.ceil(MIN_KEY_BITS / Math.log2(CARD_KEY_ALPHABETS[shape.alphabet].length));
    return `key_length ${shape.length} of ${shape.alphabet} gives ${bits.toFixed(1)} bits, under the ${MIN_KEY_BITS} a code needs: use at least ${needed} characters or a larger alphabet`;
  }
  if (prefix.length + shape.length > MAX_CODE_LENGTH) {
    return `prefix (${prefix.length}) and key_length (${shape.length}) together exceed the ${MAX_CODE_LENGTH} characters of a code`;
  }
  return null;
}

/** An optional author-chosen prefix: 0-16 of [A-Za-z0-9-]. */
export const CARD_PREFIX_PATTERN = /^[A-Za-z0-9-]{0,16}$/;

/** A uniform random integer in [0, max); node:crypto's randomInt by default. */
export type RandomIndex = (max: number) => number;

/** One card code: the prefix followed by the shape's characters drawn uniformly from its alphabet. */
export function generateCardCode(
  prefix = '',
  random: RandomIndex = (max) => randomInt(max),
  shape: CardKeyShape = DEFAULT_KEY_SHAPE,
): string {
  const alphabet = CARD_KEY_ALPHABETS[shape.alphabet];
  let code = prefix;
  for (let i = 0; i < shape.length; i++) code += alphabet[random(alphabet.length)];
  return code;
}

/** The injectable source of new codes (one seam, so a test can force a collision). */
@Injectable()
export class CardCodeGenerator {
  next(prefix: string, shape: CardKeyShape = DEFAULT_KEY_SHAPE): string {
    return generateCardCode(prefix, undefined, shape);
  }
}
