import { ApiProperty } from '@nestjs/swagger';
import { Announcement } from './announcement.entity';

/** The admin API's announcement resource. */
export class AnnouncementView {
  @ApiProperty({ type: 'integer' }) id!: number;
  @ApiProperty() title!: string;
  @ApiProperty() content!: string;
  @ApiProperty({ description: 'only enabled announcements reach clients' }) enabled!: boolean;
  @ApiProperty({ type: String, format: 'date-time' }) created_at!: string;
  @ApiProperty({ type: String, format: 'date-time' }) updated_at!: string;
}

export function toAnnouncementView(announcement: Announcement): AnnouncementView {
  return {
    id: announcement.id,
    title: announcement.title,
    content: announcement.content,
    enabled: announcement.enabled,
    created_at: announcement.createdAt.toISOString(),
    updated_at: announcement.updatedAt.toISOString(),
  };
}
