import { useMemo } from 'react';
import { AnnouncementsEditor } from '../../components/AnnouncementsEditor';
import { projectAnnouncements } from './content-queries';

/** The project's announcements, for its clients: write, edit, show or hide, delete. */
export function AnnouncementsTab({ projectId }: { projectId: string }) {
  const store = useMemo(() => projectAnnouncements(projectId), [projectId]);
  return <AnnouncementsEditor store={store} texts="content.announcements" />;
}
