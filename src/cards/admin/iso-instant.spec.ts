import { parseIsoInstant } from './iso-instant';

describe(parseIsoInstant.name, () => {
  it.each([
    ['2026-01-31T23:59:59Z', '2026-01-31T23:59:59.000Z'],
    ['2026-01-31T23:59Z', '2026-01-31T23:59:00.000Z'],
    ['2026-02-01T01:59:59.5+02:00', '2026-01-31T23:59:59.500Z'],
    ['2024-02-29T00:00:00-00:30', '2024-02-29T00:30:00.000Z'],
    ['1970-01-01T00:00:00.000000Z', '1970-01-01T00:00:00.000Z'],
  ])('reads %p as %p', (text, iso) => expect(parseIsoInstant(text)?.toISOString()).toBe(iso));

  it.each([
    '2026-01-31', // no time: which zone?
    '2026-01-31T23:59:59', // no offset
    '2026-01-31 23:59:59Z',
    '2025-02-29T00:00:00Z', // not a leap year
    '2026-04-31T00:00:00Z',
    '2026-13-01T00:00:00Z',
    '2026-01-01T24:00:00Z',
    '2026-01-01T00:60:00Z',
    '2026-01-01T00:00:00+24:00',
    '1969-12-31T23:59:59Z',
    '+02026-01-01T00:00:00Z',
    '',
  ])('refuses %p', (text) => expect(parseIsoInstant(text)).toBeNull());
});
