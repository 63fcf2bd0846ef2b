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

  describe('formula injection (OWASP: a quote before = + - @ tab CR, inside a quoted cell)', () => {
    it.each<[string, string]>([
      ['=1+1', `"'=1+1"`],
      ['=HYPERLINK("http://evil.example","click")', `"'=HYPERLINK(""http://evil.example"",""click"")"`],
      ['+1', `"'+1"`],
      ['-2+3', `"'-2+3"`],
      ['@SUM(A1:A2)', `"'@SUM(A1:A2)"`],
      ['\t=1', `"'\t=1"`],
      ['\r=1', `"'\r=1"`],
      ['=a,b', `"'=a,b"`],
    ])('neutralises %p as %p', (value, expected) => expect(csvField(value)).toBe(expected));

    it.each<[string | number, string]>([
      ['a=1', 'a=1'],
      ['VIP-ABC', 'VIP-ABC'],
      [' =1', '" =1"'],
      [0, '0'],
    ])('leaves %p alone: not at the start, or not text', (value, expected) => expect(csvField(value)).toBe(expected));

    it('applies to codes and notes of exported cards', () => {
      const card = Object.assign(new Card(), {
        id: 8,
        code: '-ABCDEFGHJKMNPQRSTUVW',
        status: 'unused',
        durationSeconds: 60,
        deviceLimit: 1,
        activatedAt: null,
        expiresAt: null,
        useCount: 0,
        lastLoginAt: null,
        note: '=cmd|" /C calc"!A0',
        batchId: null,
        devices: [],
      });
      expect(cardsCsv([card]).split('\r\n')[1]).toBe(`8,"'-ABCDEFGHJKMNPQRSTUVW",unused,60,1,,,0,,"'=cmd|"" /C calc""!A0",`);
    });
  });
});
