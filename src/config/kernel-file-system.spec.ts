import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ConfigError, loadConfig } from './app-config';
import { kernelFileSystem } from './kernel-file-system';

describe('kernelFileSystem: directories that keep no files (the doctor hung on DATA_DIR=/proc/…)', () => {
  let scratch: string;

  beforeAll(() => {
    scratch = mkdtempSync(join(tmpdir(), 'ck-kernel-fs-'));
  });

  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('names /proc and /sys, and paths under them that do not exist', () => {
    expect(kernelFileSystem('/proc')).toBe('/proc');
    expect(kernelFileSystem('/proc/ck-data/deeper')).toBe('/proc');
    expect(kernelFileSystem('/sys/ck-data')).toBe('/sys');
    expect(kernelFileSystem('/procedures/data')).toBeNull();
  });

  it('leaves ordinary directories alone, made or not', () => {
    expect(kernelFileSystem(scratch)).toBeNull();
    expect(kernelFileSystem(join(scratch, 'not', 'made', 'yet'))).toBeNull();
    expect(kernelFileSystem('./data')).toBeNull();
  });

  (process.platform === 'linux' ? it : it.skip)('finds /proc through a symlink', () => {
    const link = join(scratch, 'looks-ordinary');
    symlinkSync('/proc/self', link);
    expect(kernelFileSystem(join(link, 'data'))).toBe('/proc');
  });

  it('refuses DATA_DIR, FILES_DIR and BACKUP_DIR there at configuration, so neither doctor nor the start makes it', () => {
    let error: unknown;
    try {
      loadConfig({ DATA_DIR: '/proc/ck/data', FILES_DIR: '/sys/ck/files', BACKUP_DIR: join(scratch, 'backups') });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const message = (error as ConfigError).message;
    expect(message).toContain(
      'DATA_DIR: /proc/ck/data is on /proc, a kernel file system that keeps no files; use a directory on a disk',
    );
    expect(message).toContain('FILES_DIR: /sys/ck/files is on /sys');
    expect(message).not.toContain('BACKUP_DIR');
  });
});
