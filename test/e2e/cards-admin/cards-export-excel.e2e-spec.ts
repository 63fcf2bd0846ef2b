import { getRepositoryToken } from '@nestjs/typeorm';
import { Repository } from 'typeorm';
import { Card } from '../../../src/cards/card.entity';
import { AdminClient } from '../../support/admin-client';
import { parseCsv } from '../../support/csv';
import { startTestApp, TestApp } from '../../support/test-app';

/**
 * The card export for a spreadsheet: `export.csv?format=excel` starts with a UTF-8
 * BOM, names each card's type, gives days beside seconds and writes times in APP_TIMEZONE (named in
 * the header); `export.txt` gives the keys of a filtered list, one a line. The default CSV is unchanged.
 */
describe('card export for Excel and as text (e2e)', () => {
  let t: TestApp;
  let author: AdminClient;
  let projectId: string;
  let cardRepo: Repository<Card>;
  const cardsOf = () => `/admin/v1/projects/${projectId}/cards`;

  beforeAll(async () => {
    t = await startTestApp({ APP_TIMEZONE: 'Asia/Shanghai' });
    const admin = await AdminClient.asPlatformAdmin(t);
    author = (await admin.createAuthor()).client;
    projectId = (await author.createProject()).id;
    cardRepo = t.app.get(getRepositoryToken(Card));
  });
  afterAll(() => t.close());

  it('writes a BOM, the type name, days and Shanghai times with the zone in the header', async () => {
    const type = await author
      .post(`/admin/v1/projects/${projectId}/card-types`, {
        name: '月卡',
        kind: 'time',
        duration_seconds: 30 * 86_400,
        device_limit: 1,
        features: [],
        price_cents: 1000,
      })
      .expect(201);
    const typed = (await author.post(cardsOf(), { count: 1, card_type_id: type.body.id, note: '中文备注' }).expect(201)).body
      .items[0] as { id: number; code: string };
    const plain = (await author.post(cardsOf(), { count: 1, duration_seconds: 3600 }).expect(201)).body.items[0] as {
      id: number;
      code: string;
    };
    await cardRepo.update(
      { id: typed.id },
      { status: 'active', activatedAt: new Date('2026-01-02T16:30:05Z'), expiresAt: new Date('2026-02-01T16:30:05Z') },
    );

    const res = await author
      .get(`${cardsOf()}/export.csv?format=excel`)
      .buffer(true)
      .parse((response, done) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () => done(null, Buffer.concat(chunks)));
      })
      .expect(200);
    const bytes = res.body as Buffer;
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    expect(res.headers['content-type']).toMatch(/^text\/csv; charset=utf-8/);
    const rows = parseCsv(bytes.subarray(3).toString('utf8'));
    const header = rows[0];
    expect(header.slice(0, 9)).toEqual([
      'id',
      'code',
      'status',
      'card_type',
      'duration_days',
      'duration_seconds',
      'device_limit',
      'activated_at (Asia/Shanghai)',
      'expires_at (Asia/Shanghai)',
    ]);
    expect(header).toContain('created_at (Asia/Shanghai)');
    const col = (name: string) => header.indexOf(name);
    const [first, second] = rows.slice(1);
    expect(first[col('code')]).toBe(typed.code);
    expect(first[col('card_type')]).toBe('月卡');
    expect(first[col('duration_days')]).toBe('30');
    expect(first[col('duration_seconds')]).toBe(String(30 * 86_400));
    expect(first[col('activated_at (Asia/Shanghai)')]).toBe('2026-01-03 00:30:05');
    expect(first[col('expires_at (Asia/Shanghai)')]).toBe('2026-02-02 00:30:05');
    expect(first[col('note')]).toBe('中文备注');
    expect(first[col('created_at (Asia/Shanghai)')]).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(second[col('code')]).toBe(plain.code);
    expect(second[col('card_type')]).toBe('');
    expect(second[col('duration_days')]).toBe('0.04');

    // The default export keeps its shape: no BOM, ISO UTC times, no type column.
    const data = await author.get(`${cardsOf()}/export.csv`).expect(200);
    expect(data.text.startsWith('id,code,status,duration_seconds,')).toBe(true);
    expect(data.text).toContain('2026-01-02T16:30:05.000Z');
  });

  it('exports the keys of a filtered list as text, one a line', async () => {
    const res = await author.get(`${cardsOf()}/export.txt?status=active`).expect(200);
    expect(res.headers['content-type']).toMatch(/^text\/plain; charset=utf-8/);
    expect(res.headers['content-disposition']).toContain('cards.txt');
    const active = (await author.get(`${cardsOf()}?status=active`).expect(200)).body.items as Array<{ code: string }>;
    expect(active).toHaveLength(1);
    expect(res.text).toBe(`${active[0].code}\r\n`);
    const all = (await author.get(`${cardsOf()}/export.txt`).expect(200)).text;
    expect(all.trim().split('\r\n')).toHaveLength(2);
    expect((await author.get(`${cardsOf()}/export.csv?format=xlsx`)).status).toBe(400);
  });
});
