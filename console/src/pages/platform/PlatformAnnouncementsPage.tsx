import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { AnnouncementsEditor } from '../../components/AnnouncementsEditor';
import { platformAnnouncements } from './platform-queries';

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
