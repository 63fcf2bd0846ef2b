import { Announcement } from './announcement.entity';

/** The admin API's announcement resource. */
export function toAnnouncementView(announcement: Announcement) {
  return {
    id: announcement.id,
    title: announcement.title,
    content: announcement.content,
    enabled: announcement.enabled,
    created_at: announcement.createdAt.toISOString(),
    updated_at: announcement.updatedAt.toISOString(),
  };
}

export type AnnouncementView = ReturnType<typeof toAnnouncementView>;
