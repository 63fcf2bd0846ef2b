import { Tabs, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useParams, useSearchParams } from 'react-router';
import { SigningKeysTab } from './SigningKeysTab';
import { BlacklistTab, SitesTab } from './SitesTab';
import { VariablesTab } from './VariablesTab';

const TABS = ['variables', 'sites', 'blacklist', 'keys'] as const;

/** A project's remote variables, licence-verification sites and blacklist, and its signing keys (the tab is in the address). */
export function AccessPage() {
  const { t } = useTranslation();
  const { projectId = '' } = useParams();
  const [params, setParams] = useSearchParams();
  const tab = TABS.find((name) => name === params.get('tab')) ?? 'variables';
  const panels = {
    variables: <VariablesTab projectId={projectId} />,
    sites: <SitesTab projectId={projectId} />,
    blacklist: <BlacklistTab projectId={projectId} />,
    keys: <SigningKeysTab projectId={projectId} />,
  };
  return (
    <>
      <div className="page-title">
        <Typography.Title level={1}>{t('access.title')}</Typography.Title>
      </div>
      <Tabs
        activeKey={tab}
        onChange={(next) => setParams({ tab: next })}
        items={TABS.map((name) => ({ key: name, label: t(`access.tabs.${name}`), children: panels[name] }))}
      />
    </>
  );
}
