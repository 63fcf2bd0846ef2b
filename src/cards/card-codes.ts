import { Injectable } from '@nestjs/common';
import { randomInt } from 'node:crypto';

/** Card-key characters: no 0/O, 1/I/L, so a key read aloud or retyped from paper stays unambiguous. */
export const CARD_CODE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';

/** Random characters after the prefix: 20 of 31 symbols, about 99 bits. */
export const CARD_CODE_LENGTH = 20;

/** An optional author-chosen prefix: 0-16 of [A-Za-z0-9-]. */
export const CARD_PREFIX_PATTERN = /^[A-Za-z0-9-]{0,16}$/;

/** A uniform random integer in [0, max); node:crypto's randomInt by default. */
export type RandomIndex = (max: number) => number;

/** One card code: the prefix followed by CARD_CODE_LENGTH characters drawn uniformly from the alphabet. */
export function generateCardCode(prefix = '', random: RandomIndex = (max) => randomInt(max)): string {
  let code = prefix;
  for (let i = 0; i < CARD_CODE_LENGTH; i++) code += CARD_CODE_ALPHABET[random(CARD_CODE_ALPHABET.length)];
  return code;
}

/** The injectable source of new codes (one seam, so a test can force a collision). */
@Injectable()
export class CardCodeGenerator {
  next(prefix: string): string {
    return generateCardCode(prefix);
  }
}
