import { Navigate, createBrowserRouter } from 'react-router';
import { AppLayout } from './AppLayout';
import { RequireSession } from './RequireSession';

/** Each page is its own chunk, loaded when first visited: the first load carries the shell only. */
export const router = createBrowserRouter(
  [
    { path: '/sign-in', lazy: { Component: async () => (await import('../pages/SignInPage')).SignInPage } },
    {
      Component: RequireSession,
      children: [
        {
          Component: AppLayout,
          children: [
            { index: true, element: <Navigate to="/projects" replace /> },
            { path: 'projects', lazy: { Component: async () => (await import('../pages/projects/ProjectsPage')).ProjectsPage } },
            // A project opens on its overview (what happens), not on the long settings form.
            { path: 'projects/:projectId', element: <Navigate to="overview" replace /> },
            {
              path: 'projects/:projectId/settings',
              lazy: { Component: async () => (await import('../pages/projects/ProjectPage')).ProjectPage },
            },
            {
              path: 'projects/:projectId/overview',
              lazy: { Component: async () => (await import('../pages/overview/OverviewPage')).OverviewPage },
            },
            {
              path: 'projects/:projectId/logs',
              lazy: { Component: async () => (await import('../pages/logs/LogsPage')).LogsPage },
            },
            {
              path: 'projects/:projectId/login-blacklist',
              lazy: { Component: async () => (await import('../pages/login-blacklist/LoginBlacklistPage')).LoginBlacklistPage },
            },
            {
              path: 'projects/:projectId/users',
              lazy: { Component: async () => (await import('../pages/users/UsersPage')).UsersPage },
            },
            {
              path: 'projects/:projectId/sessions',
              lazy: { Component: async () => (await import('../pages/sessions/SessionsPage')).SessionsPage },
            },
            {
              path: 'projects/:projectId/webhooks',
              lazy: { Component: async () => (await import('../pages/webhooks/WebhooksPage')).WebhooksPage },
            },
            {
              path: 'projects/:projectId/mails',
              lazy: { Component: async () => (await import('../pages/mail/MailLogPage')).MailLogPage },
            },
            {
              path: 'projects/:projectId/payments',
              lazy: { Component: async () => (await import('../pages/payments/PaymentsPage')).PaymentsPage },
            },
            {
              path: 'projects/:projectId/checkouts',
              lazy: { Component: async () => (await import('../pages/checkouts/CheckoutsPage')).CheckoutsPage },
            },
            {
              path: 'projects/:projectId/connect',
              lazy: { Component: async () => (await import('../pages/connect/ConnectPage')).ConnectPage },
            },
            {
              path: 'projects/:projectId/content',
              lazy: { Component: async () => (await import('../pages/content/ContentPage')).ContentPage },
            },
            {
              path: 'projects/:projectId/access',
              lazy: { Component: async () => (await import('../pages/access/AccessPage')).AccessPage },
            },
            {
              path: 'projects/:projectId/cards',
              lazy: { Component: async () => (await import('../pages/cards/CardsPage')).CardsPage },
            },
            {
              path: 'projects/:projectId/cards/:cardId',
              lazy: { Component: async () => (await import('../pages/cards/CardPage')).CardPage },
            },
            {
              path: 'projects/:projectId/card-types',
              lazy: { Component: async () => (await import('../pages/card-types/CardTypesPage')).CardTypesPage },
            },
            {
              path: 'platform/authors',
              lazy: { Component: async () => (await import('../pages/platform/AuthorsPage')).AuthorsPage },
            },
            {
              path: 'platform/announcements',
              lazy: {
                Component: async () => (await import('../pages/platform/PlatformAnnouncementsPage')).PlatformAnnouncementsPage,
              },
            },
            {
              path: 'platform/settings',
              lazy: { Component: async () => (await import('../pages/platform/PlatformSettingsPage')).PlatformSettingsPage },
            },
            {
              path: 'platform/backups',
              lazy: { Component: async () => (await import('../pages/platform/BackupsPage')).BackupsPage },
            },
            { path: 'api-keys', lazy: { Component: async () => (await import('../pages/api-keys/ApiKeysPage')).ApiKeysPage } },
            { path: 'agents', lazy: { Component: async () => (await import('../pages/agents/AgentsPage')).AgentsPage } },
            { path: 'agents/:agentId', lazy: { Component: async () => (await import('../pages/agents/AgentPage')).AgentPage } },
            { path: 'agent', lazy: { Component: async () => (await import('../pages/agent/ShopPage')).ShopPage } },
            { path: 'agent/cards', lazy: { Component: async () => (await import('../pages/agent/MyCardsPage')).MyCardsPage } },
            { path: 'agent/ledger', lazy: { Component: async () => (await import('../pages/agent/MyLedgerPage')).MyLedgerPage } },
            { path: 'agent/sales', lazy: { Component: async () => (await import('../pages/agent/MySalesPage')).MySalesPage } },
            { path: 'security', lazy: { Component: async () => (await import('../pages/security/SecurityPage')).SecurityPage } },
            { path: 'account', lazy: { Component: async () => (await import('../pages/account/AccountPage')).AccountPage } },
            { path: 'audit', lazy: { Component: async () => (await import('../pages/audit/AuditPage')).AuditPage } },
            { path: '*', lazy: { Component: async () => (await import('../pages/NotFoundPage')).NotFoundPage } },
          ],
        },
      ],
    },
  ],
  { basename: '/console' },
);
