import { Card } from '../cards/card.entity';
import { clientExpiry } from '../cards/card-rule';

/** The card part of a standard-family login answer (V3 and SDK alike). */
export interface StandardCardData {
  id: number;
  code: string;
  machine_code: string;
  expires_at: string;
}

export function standardCardData(card: Card, machine: string, timeZone: string): StandardCardData {
  return { id: card.id, code: card.code, machine_code: machine, expires_at: clientExpiry(card, timeZone) };
}
