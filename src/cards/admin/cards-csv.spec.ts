import { CardDevice } from '../card-device.entity';
import { Card } from '../card.entity';
import { csvField } from '../../common/csv';
import { CARD_CSV_COLUMNS, cardsCsv } from './cards-csv';

describe(cardsCsv.name, () => {
  it('writes a header row, one row per card and CRLF line ends, with every field and the devices one per line', () => {
    const card = Object.assign(new Card(), {
      id: 7,
      code: 'VIP-ABCDEFGHJKMNPQRSTUVW',
      status: 'active',
      kind: 'count',
      usesLeft: 4,
      concurrentLimit: null,
      durationSeconds: 86400,
      deviceLimit: 2,
      activatedAt: new Date('2025-01-02T03:04:05.000Z'),
      expiresAt: new Date('2025-01-03T03:04:05.000Z'),
      useCount: 3,
      unbindCount: 1,
      lastLoginAt: null,
      note: 'for "Bob", 2 seats\nsecond line',
      batchId: null,
      createdAt: new Date('2025-01-01T00:00:00.000Z'),
    });
    const devices = [
      Object.assign(new CardDevice(), { cardId: 7, machineCode: 'PC-1', boundAt: new Date() }),
      Object.assign(new CardDevice(), { cardId: 8, machineCode: 'other card', boundAt: new Date() }),
      Object.assign(new CardDevice(), { cardId: 7, machineCode: '=laptop, 2', boundAt: new Date() }),
    ];
    expect(cardsCsv([card], devices)).toBe(
      `${CARD_CSV_COLUMNS.join(',')}\r\n` +
        '7,VIP-ABCDEFGHJKMNPQRSTUVW,active,86400,2,2025-01-02T03:04:05.000Z,2025-01-03T03:04:05.000Z,3,,"for ""Bob"", 2 seats\nsecond line",,' +
        'count,4,,1,2025-01-01T00:00:00.000Z,"PC-1\n=laptop, 2",\r\n',
    );
    expect(cardsCsv([])).toBe(
      'id,code,status,duration_seconds,device_limit,activated_at,expires_at,use_count,last_login_at,note,batch_id,' +
        'kind,uses_left,concurrent_limit,unbind_count,created_at,devices,holder_email\r\n',
    );
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
        kind: 'time',
        usesLeft: null,
        concurrentLimit: 1,
        unbindCount: 0,
        createdAt: new Date('2025-01-01T00:00:00.000Z'),
      });
      const device = Object.assign(new CardDevice(), { cardId: 8, machineCode: '@evil', boundAt: new Date() });
      expect(cardsCsv([card], [device]).split('\r\n')[1]).toBe(
        `8,"'-ABCDEFGHJKMNPQRSTUVW",unused,60,1,,,0,,"'=cmd|"" /C calc""!A0",,time,,1,0,2025-01-01T00:00:00.000Z,"'@evil",`,
      );
    });
  });
});
