import { useMemo } from 'react';
import { api } from '../../api/client';
import { unwrap } from '../../api/errors';
import { AnnouncementsEditor, type AnnouncementStore } from '../../components/AnnouncementsEditor';

/** The project's announcements, for its clients: write, edit, show or hide, delete. */
export function AnnouncementsTab({ projectId }: { projectId: string }) {
  const store = useMemo<AnnouncementStore>(() => {
    const one = (annId: number) => ({ params: { path: { id: projectId, annId } } });
    return {
      queryKey: ['announcements', projectId],
      list: () =>
        unwrap(
          api.GET('/admin/v1/projects/{id}/announcements', {
            params: { path: { id: projectId }, query: { page: 1, page_size: 100 } },
          }),
        ),
      create: (body) => unwrap(api.POST('/admin/v1/projects/{id}/announcements', { params: { path: { id: projectId } }, body })),
      update: (annId, body) => unwrap(api.PATCH('/admin/v1/projects/{id}/announcements/{annId}', { ...one(annId), body })),
      remove: (annId) => unwrap(api.DELETE('/admin/v1/projects/{id}/announcements/{annId}', one(annId))),
    };
  }, [projectId]);
  return <AnnouncementsEditor store={store} texts="content.announcements" />;
}
