import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { api } from '../../api/client';
import { unwrap } from '../../api/errors';
import { AnnouncementsEditor, type AnnouncementStore } from '../../components/AnnouncementsEditor';

const one = (id: number) => ({ params: { path: { id } } });

/** The platform's announcements to authors (a platform admin sees hidden ones too). */
export const platformAnnouncements: AnnouncementStore = {
  queryKey: ['platform', 'announcements'],
  list: () => unwrap(api.GET('/admin/v1/platform/announcements', { params: { query: { page: 1, page_size: 100 } } })),
  create: (body) => unwrap(api.POST('/admin/v1/platform/announcements', { body })),
  update: (id, body) => unwrap(api.PATCH('/admin/v1/platform/announcements/{id}', { ...one(id), body })),
  remove: (id) => unwrap(api.DELETE('/admin/v1/platform/announcements/{id}', one(id))),
};

/** Platform admins write, correct, show or hide and delete what every author is told. */
export function PlatformAnnouncementsPage() {
  const { t } = useTranslation();
  return (
    <>
      <div className="page-title">
        <Typography.Title level={1}>{t('platform.announcements.title')}</Typography.Title>
      </div>
      <AnnouncementsEditor store={platformAnnouncements} texts="platform.announcements" />
    </>
  );
}
