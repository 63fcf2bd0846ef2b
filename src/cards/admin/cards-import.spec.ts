import { ServiceError } from '../../core/errors/service-error';
import { parseImport } from './cards-import';
import { IMPORT_MAX_ROWS } from './import-format';

const DEFAULTS = { deviceLimit: 2, concurrentLimit: 3 };

describe(parseImport.name, () => {
  it("gives absent columns the project's settings, and an empty concurrent_limit cell means unlimited", () => {
    const absent = parseImport('code,duration_seconds\nA,60\n', DEFAULTS);
    expect(absent.problems).toEqual([]);
    expect(absent.rows).toEqual([
      expect.objectContaining({
        line: 2,
        code: 'A',
        kind: 'time',
        usesLeft: null,
        durationSeconds: 60,
        deviceLimit: 2,
        concurrentLimit: 3,
        note: null,
        status: 'unused',
        activatedAt: null,
        expiresAt: null,
        useCount: 0,
        unbindCount: 0,
        lastLoginAt: null,
        devices: [],
      }),
    ]);
    expect(parseImport('code,duration_seconds,concurrent_limit\nA,60,\n', DEFAULTS).rows[0].concurrentLimit).toBeNull();
  });

  it("takes off the export's formula guard and reads devices one per line", () => {
    const csv = 'code,note,status,activated_at,devices\r\n"\'-X1","\'=1+1",active,2025-01-01T00:00:00Z,"\'+pc\nlaptop 2"\r\n';
    const { rows, problems } = parseImport(csv, DEFAULTS);
    expect(problems).toEqual([]);
    expect(rows[0]).toMatchObject({
      code: '-X1',
      note: '=1+1',
      status: 'active',
      durationSeconds: 0,
      devices: ['+pc', 'laptop 2'],
    });
  });

  it('accepts consumed (so that every export imports back) and refuses states that cannot be', () => {
    expect(parseImport('code,duration_seconds,status\nA,60,consumed\n', DEFAULTS).problems).toEqual([]);
    const { problems } = parseImport(
      'code,duration_seconds,status,activated_at,devices\nA,60,unused,2025-01-01T00:00:00Z,\nB,60,,,pc-1\nC,60,active,,\n" D",60,,,\nE\u0007,60,,,\n',
      DEFAULTS,
    );
    expect(problems.map((p) => `${p.line}:${p.field}`)).toEqual(['2:status', '3:devices', '4:activated_at', '5:code', '6:code']);
  });

  it('refuses more than IMPORT_MAX_ROWS rows as a whole', () => {
    const csv = ['code', ...Array.from({ length: IMPORT_MAX_ROWS + 1 }, (_, i) => `C${i}`)].join('\n');
    expect(() => parseImport(csv, DEFAULTS)).toThrow(ServiceError);
  });
});
