import { StoredFile } from './file.entity';

/** The admin API's file resource. */
export function toFileView(file: StoredFile) {
  return {
    id: file.id,
    name: file.name,
    size: file.size,
    sha256: file.sha256,
    download_count: file.downloadCount,
    created_at: file.createdAt.toISOString(),
  };
}

export type FileView = ReturnType<typeof toFileView>;
