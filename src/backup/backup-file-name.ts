import { BackupTrigger } from './backup.entity';

/** `backup-20261129-133624-manual-1a2b3c4d.tar.gz`: sorts by time, says who asked, never collides. */
export function backupFileName(id: string, trigger: BackupTrigger, at: Date): string {
  const stamp = at
    .toISOString()
    .replace(/\.\d+Z$/, '')
    .replace(/[-:]/g, '')
    .replace('T', '-');
  return `backup-${stamp}-${trigger}-${id.slice(0, 8)}.tar.gz`;
}
