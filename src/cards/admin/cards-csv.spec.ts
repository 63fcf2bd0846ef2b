import { Card } from '../card.entity';
import { CARD_CSV_COLUMNS, cardsCsv, csvField } from './cards-csv';

describe(cardsCsv.name, () => {
  it('writes a header row, one row per card and CRLF line ends', () => {
    const card = Object.assign(new Card(), {
      id: 7,
      code: 'VIP-ABCDEFGHJKMNPQRSTUVW',
      status: 'active',
      durationSeconds: 86400,
      deviceLimit: 2,
      activatedAt: new Date('2025-01-02T03:04:05.000Z'),
      expiresAt: new Date('2025-01-03T03:04:05.000Z'),
      useCount: 3,
      lastLoginAt: null,
      note: 'for "Bob", 2 seats\nsecond line',
      batchId: null,
      devices: [],
    });
    expect(cardsCsv([card])).toBe(
      `${CARD_CSV_COLUMNS.join(',')}\r\n` +
        '7,VIP-ABCDEFGHJKMNPQRSTUVW,active,86400,2,2025-01-02T03:04:05.000Z,2025-01-03T03:04:05.000Z,3,,"for ""Bob"", 2 seats\nsecond line",\r\n',
    );
    expect(cardsCsv([])).toBe('id,code,status,duration_seconds,device_limit,activated_at,expires_at,use_count,last_login_at,note,batch_id\r\n');
  });

  it.each<[string | number | null, string]>([
    [null, ''],
    [0, '0'],
    ['plain', 'plain'],
    ['a,b', '"a,b"'],
    ['say "hi"', '"say ""hi"""'],
    ['two\r\nlines', '"two\r\nlines"'],
    [' padded ', '" padded "'],
  ])('field %p → %p', (value, expected) => expect(csvField(value)).toBe(expected));
});
