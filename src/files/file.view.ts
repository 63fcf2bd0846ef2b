import { ApiProperty } from '@nestjs/swagger';
import { StoredFile } from './file.entity';

/** The admin API's file resource. */
export class FileView {
  @ApiProperty({ format: 'uuid' }) id!: string;
  @ApiProperty() name!: string;
  @ApiProperty({ type: 'integer', description: 'bytes' }) size!: number;
  @ApiProperty({ description: 'lowercase hex' }) sha256!: string;
  @ApiProperty({ type: 'integer' }) download_count!: number;
  @ApiProperty({ type: String, format: 'date-time' }) created_at!: string;
}

export function toFileView(file: StoredFile): FileView {
  return {
    id: file.id,
    name: file.name,
    size: file.size,
    sha256: file.sha256,
    download_count: file.downloadCount,
    created_at: file.createdAt.toISOString(),
  };
}
