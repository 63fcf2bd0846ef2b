import {
  ApiOutlined,
  AppstoreOutlined,
  AuditOutlined,
  BarChartOutlined,
  ClusterOutlined,
  ControlOutlined,
  CreditCardOutlined,
  DatabaseOutlined,
  MailOutlined,
  NotificationOutlined,
  PayCircleOutlined,
  ProfileOutlined,
  SafetyOutlined,
  SendOutlined,
  SettingOutlined,
  ShopOutlined,
  ShoppingCartOutlined,
  SolutionOutlined,
  SoundOutlined,
  StopOutlined,
  TagsOutlined,
  TeamOutlined,
  UserOutlined,
  WalletOutlined,
  WifiOutlined,
} from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import type { MenuProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { useParams } from 'react-router';
import { projectQuery } from '../pages/projects/project-queries';
import { useSession } from './use-session';

/** The pages an agent (reseller) may open: its own account, nothing of the author's (decisions §19). */
export const AGENT_PAGES = ['/agent', '/agents', '/security', '/account', '/api-keys'] as const;

/** True when an agent may open the address: its own pages only. */
export function agentMayOpen(pathname: string): boolean {
  return AGENT_PAGES.some((page) => pathname === page || pathname.startsWith(`${page}/`));
}

/** An agent's reduced menu: what it sells and orders, its cards, its sales, its ledger, its sub-agents. */
function useAgentItems(): MenuProps['items'] {
  const { t } = useTranslation();
  return [
    { key: '/agent', icon: <ShopOutlined />, label: t('agents.menu.shop') },
    { key: '/agent/cards', icon: <CreditCardOutlined />, label: t('agents.menu.myCards') },
    { key: '/agent/sales', icon: <BarChartOutlined />, label: t('agentPrices.sales.menu') },
    { key: '/agent/ledger', icon: <WalletOutlined />, label: t('agents.menu.ledger') },
    { key: '/agents', icon: <ClusterOutlined />, label: t('agents.menu.subAgents') },
  ];
}

/** The navigation of an author or platform admin: projects, agents, and the open project's pages. */
function useStaffItems(): MenuProps['items'] {
  const { t } = useTranslation();
  const { projectId } = useParams();
  const project = useQuery({ ...projectQuery(projectId ?? ''), enabled: projectId !== undefined });
  const platformAdmin = useSession()?.role === 'platform_admin';
  const items: MenuProps['items'] = [
    { key: '/projects', icon: <AppstoreOutlined />, label: t('app.projects') },
    { key: '/agents', icon: <SolutionOutlined />, label: t('agents.menu.agents') },
    { key: '/audit', icon: <AuditOutlined />, label: t('audit.menu') },
  ];
  if (platformAdmin) {
    items.push({
      type: 'group',
      key: 'platform',
      label: t('platform.menu.group'),
      children: [
        { key: '/platform/authors', icon: <TeamOutlined />, label: t('platform.menu.authors') },
        { key: '/platform/announcements', icon: <SoundOutlined />, label: t('platform.menu.announcements') },
        { key: '/platform/settings', icon: <ControlOutlined />, label: t('platform.menu.settings') },
        { key: '/platform/backups', icon: <DatabaseOutlined />, label: t('backups.menu') },
      ],
    });
  }
  if (projectId) {
    items.push({
      type: 'group',
      key: 'project',
      label: project.data?.name ?? '…',
      children: [
        { key: `/projects/${projectId}/overview`, icon: <BarChartOutlined />, label: t('operations.menu.overview') },
        { key: `/projects/${projectId}/settings`, icon: <SettingOutlined />, label: t('app.settings') },
        { key: `/projects/${projectId}/cards`, icon: <CreditCardOutlined />, label: t('app.cards') },
        { key: `/projects/${projectId}/card-types`, icon: <TagsOutlined />, label: t('cardTypes.menu') },
        { key: `/projects/${projectId}/content`, icon: <NotificationOutlined />, label: t('content.menu') },
        { key: `/projects/${projectId}/access`, icon: <SafetyOutlined />, label: t('access.menu') },
        { key: `/projects/${projectId}/login-blacklist`, icon: <StopOutlined />, label: t('loginBlacklist.menu') },
        { key: `/projects/${projectId}/connect`, icon: <ApiOutlined />, label: t('connect.menu') },
        { key: `/projects/${projectId}/users`, icon: <UserOutlined />, label: t('users.menu') },
        { key: `/projects/${projectId}/sessions`, icon: <WifiOutlined />, label: t('sessions.menu') },
        { key: `/projects/${projectId}/logs`, icon: <ProfileOutlined />, label: t('operations.menu.logs') },
        { key: `/projects/${projectId}/webhooks`, icon: <SendOutlined />, label: t('webhooks.menu') },
        { key: `/projects/${projectId}/payments`, icon: <PayCircleOutlined />, label: t('selling.payments.menu') },
        { key: `/projects/${projectId}/checkouts`, icon: <ShoppingCartOutlined />, label: t('selling.checkouts.menu') },
        { key: `/projects/${projectId}/mails`, icon: <MailOutlined />, label: t('mail.menu') },
      ],
    });
  }
  return items;
}

/** The menu of the signed-in account's role. */
export function useMenuItems(): MenuProps['items'] {
  const agent = useSession()?.role === 'agent';
  const agentItems = useAgentItems();
  const staffItems = useStaffItems();
  return agent ? agentItems : staffItems;
}
