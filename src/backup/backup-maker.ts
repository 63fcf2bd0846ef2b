import { Injectable } from '@nestjs/common';
import { BackupOptions, BackupResult } from './backup-result';

/**
 * Backs up the running service's database into one archive (decisions §24) while it keeps serving.
 * Placeholder until the archive writer lands.
 */
@Injectable()
export class BackupMaker {
  // eslint-disable-next-line @typescript-eslint/no-unused-vars
  make(file: string, options: BackupOptions = {}): Promise<BackupResult> {
    return Promise.reject(new Error('not built yet'));
  }
}
