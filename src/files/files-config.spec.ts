import { join } from 'node:path';
import { loadConfig } from '../config/app-config';

describe('file settings (FILES_DIR, FILE_MAX_BYTES, DOWNLOAD_URL_TTL_SECONDS)', () => {
  it('defaults to DATA_DIR/files, 50 MiB and 10 minutes', () => {
    const config = loadConfig({ DATA_DIR: '/srv/ck' });
    expect(config.filesDir).toBe(join('/srv/ck', 'files'));
    expect(config.FILE_MAX_BYTES).toBe(50 * 1024 * 1024);
    expect(config.DOWNLOAD_URL_TTL_SECONDS).toBe(600);
  });

  it('takes them from the environment', () => {
    const config = loadConfig({ FILES_DIR: '/mnt/files', FILE_MAX_BYTES: '1024', DOWNLOAD_URL_TTL_SECONDS: '60' });
    expect(config).toMatchObject({ filesDir: '/mnt/files', FILE_MAX_BYTES: 1024, DOWNLOAD_URL_TTL_SECONDS: 60 });
  });

  it('refuses bad values, naming each', () => {
    expect(() => loadConfig({ FILE_MAX_BYTES: '0', DOWNLOAD_URL_TTL_SECONDS: 'soon' })).toThrow(
      /FILE_MAX_BYTES[\s\S]*DOWNLOAD_URL_TTL_SECONDS/,
    );
    expect(() => loadConfig({ DOWNLOAD_URL_TTL_SECONDS: String(8 * 86400) })).toThrow(/DOWNLOAD_URL_TTL_SECONDS/);
  });
});
