import {
  DownOutlined,
  KeyOutlined,
  LogoutOutlined,
  MenuOutlined,
  SafetyCertificateOutlined,
  UserOutlined,
} from '@ant-design/icons';
import { Button, Drawer, Dropdown, Grid, Layout, Menu, Space, Typography, type MenuProps } from 'antd';
import { Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation, useNavigate } from 'react-router';
import { clearSession } from '../api/session';
import { LanguageSwitch } from '../components/LanguageSwitch';
import { TimeZoneSelect } from '../components/TimeZoneSelect';
import { PageLoading } from '../components/PageLoading';
import { StepUpPrompt } from '../components/StepUpPrompt';
import { signOutAtService } from './app-queries';
import { useMenuItems } from './menu-items';
import { queryClient } from './query-client';
import { useSession } from './use-session';

/** The deepest menu entry the address is in. */
function selectedKey(pathname: string, items: MenuProps['items']): string[] {
  const keys = (items ?? [])
    .flatMap((item) => (item && 'children' in item && item.children ? item.children : [item]))
    .map((item) => String(item?.key));
  const match = keys.filter((key) => pathname === key || pathname.startsWith(`${key}/`)).sort((a, b) => b.length - a.length)[0];
  return match ? [match] : [];
}

/**
 * Header with the language and the signed-in admin; the menu in a side bar on a wide screen and in
 * a drawer behind a button on a phone (antd's collapsed side bar has no keyboard-reachable trigger).
 */
export function AppLayout() {
  const { t } = useTranslation();
  const session = useSession();
  const navigate = useNavigate();
  const { pathname } = useLocation();
  const wide = Grid.useBreakpoint().lg ?? true;
  const [drawerOpen, setDrawerOpen] = useState(false);
  const items = useMenuItems();

  const menu = (
    <Menu
      mode="inline"
      aria-label={t('app.menu')}
      // Until the account sets up the two-factor sign-in the platform requires, only its security page opens.
      items={session?.twoFactorEnrolmentRequired ? [] : items}
      selectedKeys={selectedKey(pathname, items)}
      onClick={({ key }) => {
        setDrawerOpen(false);
        void navigate(key);
      }}
    />
  );

  const signOut = async () => {
    // The token stops working at the service too; the tab forgets it even if that call fails.
    await signOutAtService().catch(() => undefined);
    clearSession();
    queryClient.clear();
  };

  return (
    <Layout className="app-layout">
      {wide && (
        <Layout.Sider width={220} theme="light" className="app-sider">
          <div className="brand">{t('app.title')}</div>
          {menu}
        </Layout.Sider>
      )}
      <Layout>
        <Layout.Header className="app-header">
          <Space>
            {!wide && (
              <Button type="text" icon={<MenuOutlined />} aria-label={t('app.menu')} onClick={() => setDrawerOpen(true)} />
            )}
            {!wide && <span className="brand-inline">{t('app.title')}</span>}
          </Space>
          <Space size="small" wrap={false}>
            <LanguageSwitch />
            {wide && <TimeZoneSelect />}
            <Dropdown
              trigger={['click']}
              menu={{
                items: [
                  { key: '/account', icon: <UserOutlined />, label: t('account.menu') },
                  { key: '/security', icon: <SafetyCertificateOutlined />, label: t('twoFactor.security.menu') },
                  { key: '/api-keys', icon: <KeyOutlined />, label: t('apiKeys.menu') },
                ],
                onClick: ({ key }) => void navigate(key),
              }}
            >
              <Button type="text" className="who-button">
                <Typography.Text className="who" ellipsis>
                  {session?.username} · {session ? t(`roles.${session.role}`) : ''}
                </Typography.Text>
                <DownOutlined />
              </Button>
            </Dropdown>
            <Button icon={<LogoutOutlined />} onClick={() => void signOut()} aria-label={t('app.signOut')}>
              {wide ? t('app.signOut') : null}
            </Button>
          </Space>
        </Layout.Header>
        <StepUpPrompt />
        <Layout.Content className="app-content">
          <Suspense fallback={<PageLoading />}>
            <Outlet />
          </Suspense>
        </Layout.Content>
      </Layout>
      {!wide && (
        <Drawer open={drawerOpen} onClose={() => setDrawerOpen(false)} placement="left" size={260} title={t('app.title')}>
          {menu}
          <div style={{ marginTop: 16 }}>
            <TimeZoneSelect />
          </div>
        </Drawer>
      )}
    </Layout>
  );
}
