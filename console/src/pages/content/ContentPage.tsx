import { Tabs, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useParams, useSearchParams } from 'react-router';
import { AnnouncementsTab } from './AnnouncementsTab';
import { FilesTab } from './FilesTab';
import { VersionsTab } from './VersionsTab';

const TABS = ['announcements', 'versions', 'files'] as const;

/** What a project's program shows and downloads: announcements, versions and their files (the tab is in the address). */
export function ContentPage() {
  const { t } = useTranslation();
  const { projectId = '' } = useParams();
  const [params, setParams] = useSearchParams();
  const tab = TABS.find((name) => name === params.get('tab')) ?? 'announcements';
  const panels = {
    announcements: <AnnouncementsTab projectId={projectId} />,
    versions: <VersionsTab projectId={projectId} />,
    files: <FilesTab projectId={projectId} />,
  };
  return (
    <>
      <div className="page-title">
        <Typography.Title level={1}>{t('content.title')}</Typography.Title>
      </div>
      <Tabs
        activeKey={tab}
        onChange={(next) => setParams({ tab: next })}
        items={TABS.map((name) => ({ key: name, label: t(`content.tabs.${name}`), children: panels[name] }))}
      />
    </>
  );
}
