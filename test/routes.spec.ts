import { familyOfPath } from '../src/http/envelope/family';
import { HTTP_CODE_METADATA } from '@nestjs/common/constants';
import { DeclaredRoute, declaredRoutes } from './support/routes';

/**
 * Every route with its method, envelope family and auth scheme. A route that loses its guard or
 * moves family changes this list, and the diff is reviewed.
 */
const ROUTES = [
  'GET /admin/v1/agents admin admin-bearer',
  'POST /admin/v1/agents admin admin-bearer',
  'GET /admin/v1/agents/me admin admin-bearer',
  'GET /admin/v1/agents/:id admin admin-bearer',
  'PATCH /admin/v1/agents/:id admin admin-bearer',
  'GET /admin/v1/agents/:id/ledger admin admin-bearer',
  'GET /admin/v1/agents/:id/prices admin admin-bearer',
  'PUT /admin/v1/agents/:id/prices/:typeId admin admin-bearer',
  'DELETE /admin/v1/agents/:id/prices/:typeId admin admin-bearer',
  'POST /admin/v1/agents/:id/credits admin admin-bearer',
  'GET /admin/v1/agents/:id/sales admin admin-bearer',
  'GET /admin/v1/agents/me/card-types admin admin-bearer',
  'GET /admin/v1/agents/me/cards admin admin-bearer',
  'GET /admin/v1/agents/me/cards/export.csv admin admin-bearer',
  'PATCH /admin/v1/agents/me/cards/:cardId admin admin-bearer',
  'DELETE /admin/v1/agents/me/cards/:cardId/devices/:machine admin admin-bearer',
  'GET /admin/v1/platform/ledger-check admin admin-bearer',
  'GET /admin/v1/projects/:id/orders admin admin-bearer',
  'POST /admin/v1/projects/:id/orders admin admin-bearer',
  'GET /admin/v1/projects/:id/orders/:orderId admin admin-bearer',
  'POST /admin/v1/projects/:id/orders/:orderId/refund admin admin-bearer',
  'GET /admin/v1/projects/:id/checkouts admin admin-bearer',
  'GET /admin/v1/projects/:id/payment-refusals admin admin-bearer',
  'GET /admin/v1/projects/:id/payments admin admin-bearer',
  'PUT /admin/v1/projects/:id/payments/:provider admin admin-bearer',
  'DELETE /admin/v1/projects/:id/payments/:provider admin admin-bearer',
  'DELETE /admin/v1/projects/:id/announcements/:annId admin admin-bearer',
  'DELETE /admin/v1/projects/:id/card-types/:typeId admin admin-bearer',
  'DELETE /admin/v1/projects/:id/cards/:cardId admin admin-bearer',
  'DELETE /admin/v1/projects/:id/cards/:cardId/devices/:machine admin admin-bearer',
  'DELETE /admin/v1/projects/:id/login-blacklist/:entryId admin admin-bearer',
  'GET /admin/v1/projects/:id/announcements admin admin-bearer',
  'GET /admin/v1/projects/:id/app-users admin admin-bearer',
  'GET /admin/v1/projects/:id/app-users/:userId admin admin-bearer',
  'GET /admin/v1/projects/:id/announcements/:annId admin admin-bearer',
  'GET /admin/v1/projects/:id/card-types admin admin-bearer',
  'GET /admin/v1/projects/:id/card-types/:typeId admin admin-bearer',
  'GET /admin/v1/projects/:id/cards admin admin-bearer',
  'GET /admin/v1/projects/:id/cards/:cardId admin admin-bearer',
  'GET /admin/v1/projects/:id/cards/export.csv admin admin-bearer',
  'GET /admin/v1/projects/:id/cards/export.txt admin admin-bearer',
  'GET /admin/v1/projects/:id/login-blacklist admin admin-bearer',
  'GET /admin/v1/projects/:id/logs admin admin-bearer',
  'GET /admin/v1/projects/:id/requests admin admin-bearer',
  'GET /admin/v1/projects/:id/requests/:requestId admin admin-bearer',
  'GET /admin/v1/projects/:id/stats admin admin-bearer',
  'GET /admin/v1/projects/:id/sessions admin admin-bearer',
  'GET /admin/v1/projects/:id/usage admin admin-bearer',
  'PATCH /admin/v1/projects/:id/announcements/:annId admin admin-bearer',
  'PATCH /admin/v1/projects/:id/app-users/:userId admin admin-bearer',
  'PATCH /admin/v1/projects/:id/card-types/:typeId admin admin-bearer',
  'PATCH /admin/v1/projects/:id/cards/:cardId admin admin-bearer',
  'PATCH /admin/v1/projects/:id/login-blacklist/:entryId admin admin-bearer',
  'POST /admin/v1/projects/:id/announcements admin admin-bearer',
  'POST /admin/v1/projects/:id/card-types admin admin-bearer',
  'POST /admin/v1/projects/:id/cards admin admin-bearer',
  'POST /admin/v1/projects/:id/cards/bulk admin admin-bearer',
  'POST /admin/v1/projects/:id/cards/import admin admin-bearer',
  'POST /admin/v1/projects/:id/login-blacklist admin admin-bearer',
  'POST /admin/v1/projects/:id/sessions/revoke admin admin-bearer',
  'POST /api/app-users/login legacy none',
  'POST /api/app-users/register legacy none',
  'POST /api/legacy/v3/cards/login standard hmac',
  'POST /api/v1/cards/login standard hmac',
  'POST /api/v1/cards/checkout standard hmac',
  'POST /api/v1/cards/heartbeat standard session-bearer',
  'POST /api/v1/cards/info standard hmac',
  'POST /api/v1/cards/topup standard hmac',
  'POST /api/v1/cards/trial standard hmac',
  'POST /api/v1/cards/unbind standard hmac',
  'POST /api/v1/portal/cards/info standard none',
  'POST /api/v1/portal/cards/topup standard none',
  'POST /api/v1/portal/cards/unbind standard none',
  'POST /api/v1/users/heartbeat standard session-bearer',
  'POST /api/v1/users/login standard hmac',
  'POST /api/v1/users/register standard hmac',
  'DELETE /admin/v1/projects/:id admin admin-bearer',
  'DELETE /admin/v1/projects/:id/connect/customization admin admin-bearer',
  'DELETE /admin/v1/projects/:id/files/:fileId admin admin-bearer',
  'DELETE /admin/v1/projects/:id/versions/:versionId admin admin-bearer',
  'DELETE /admin/v1/projects/:id/webhooks/:wid admin admin-bearer',
  'DELETE /admin/v1/projects/:id/blacklist/:entryId admin admin-bearer',
  'DELETE /admin/v1/projects/:id/sites/:siteId admin admin-bearer',
  'DELETE /admin/v1/projects/:id/variables/:variableId admin admin-bearer',
  'GET /admin/v1/projects/:id/connect/customization admin admin-bearer',
  'POST /admin/v1/projects/:id/connect/customization/preview admin admin-bearer',
  'PUT /admin/v1/projects/:id/connect/customization admin admin-bearer',
  'GET /shop/api/:program_id admin none',
  'POST /shop/api/:program_id/checkouts admin none',
  'GET /shop/api/checkouts/:checkout_id admin none',
  'GET /shop/notify/epay/:project_id admin none',
  'POST /shop/notify/epay/:project_id admin none',
  'POST /shop/notify/stripe/:project_id admin none',
  'POST /shop/notify/alipay/:project_id admin none',
  'POST /connect/:programId connect none',
  'POST /conncet/:programId connect none',
  'GET /admin/v1/auth/me admin admin-bearer',
  'GET /admin/v1/audit admin admin-bearer',
  'GET /admin/v1/audit/export.csv admin admin-bearer',
  'GET /admin/v1/authors admin admin-bearer',
  'GET /admin/v1/authors/:id admin admin-bearer',
  'GET /admin/v1/platform/announcements admin admin-bearer',
  'GET /admin/v1/platform/backups admin admin-bearer',
  'POST /admin/v1/platform/backups admin admin-bearer',
  'GET /admin/v1/platform/backups/:id/download admin admin-bearer',
  'DELETE /admin/v1/platform/backups/:id admin admin-bearer',
  'PATCH /admin/v1/platform/announcements/:id admin admin-bearer',
  'DELETE /admin/v1/platform/announcements/:id admin admin-bearer',
  'GET /admin/v1/platform/interfaces admin admin-bearer',
  'GET /admin/v1/platform/settings admin admin-bearer',
  'GET /admin/v1/projects admin admin-bearer',
  'GET /admin/v1/projects/:id admin admin-bearer',
  'GET /admin/v1/projects/:id/files admin admin-bearer',
  'GET /admin/v1/projects/:id/files/:fileId admin admin-bearer',
  'GET /admin/v1/projects/:id/interfaces admin admin-bearer',
  'GET /admin/v1/projects/:id/versions admin admin-bearer',
  'GET /admin/v1/projects/:id/webhooks admin admin-bearer',
  'GET /admin/v1/projects/:id/webhooks/:wid admin admin-bearer',
  'GET /admin/v1/projects/:id/webhooks/:wid/deliveries admin admin-bearer',
  'GET /admin/v1/projects/:id/versions/:versionId admin admin-bearer',
  'GET /admin/v1/projects/:id/blacklist admin admin-bearer',
  'GET /admin/v1/projects/:id/sites admin admin-bearer',
  'GET /admin/v1/projects/:id/sites/:siteId admin admin-bearer',
  'GET /admin/v1/projects/:id/variables admin admin-bearer',
  'GET /admin/v1/projects/:id/variables/:variableId admin admin-bearer',
  'GET /api/announcement legacy none',
  'GET /api/latest_version legacy none',
  'GET /api/download/:id legacy signed-url',
  'GET /api/paycheck legacy none',
  'GET /health - none',
  'GET /health/live - none',
  'GET /health/ready - none',
  'GET /metrics - none',
  'PATCH /admin/v1/authors/:id admin admin-bearer',
  'PATCH /admin/v1/projects/:id admin admin-bearer',
  'PATCH /admin/v1/projects/:id/versions/:versionId admin admin-bearer',
  'PATCH /admin/v1/projects/:id/webhooks/:wid admin admin-bearer',
  'PATCH /admin/v1/projects/:id/sites/:siteId admin admin-bearer',
  'PATCH /admin/v1/projects/:id/variables/:variableId admin admin-bearer',
  'POST /admin/v1/auth/login admin none',
  'POST /admin/v1/auth/logout admin admin-bearer',
  'POST /admin/v1/auth/password admin admin-bearer',
  'POST /admin/v1/auth/login/2fa admin none',
  'POST /admin/v1/auth/2fa/enrol admin admin-bearer',
  'GET /admin/v1/api-keys admin admin-bearer',
  'POST /admin/v1/api-keys admin admin-bearer',
  'DELETE /admin/v1/api-keys/:keyId admin admin-bearer',
  'POST /admin/v1/auth/2fa/confirm admin admin-bearer',
  'POST /admin/v1/auth/2fa/disable admin admin-bearer',
  'POST /admin/v1/authors admin admin-bearer',
  'POST /admin/v1/platform/announcements admin admin-bearer',
  'POST /admin/v1/projects admin admin-bearer',
  'POST /admin/v1/projects/:id/files admin admin-bearer',
  'POST /admin/v1/projects/:id/secrets/:name/rotate admin admin-bearer',
  'GET /admin/v1/projects/:id/signing-keys admin admin-bearer',
  'POST /admin/v1/projects/:id/signing-keys/rotate admin admin-bearer',
  'POST /admin/v1/projects/:id/versions admin admin-bearer',
  'POST /admin/v1/projects/:id/webhooks admin admin-bearer',
  'POST /admin/v1/projects/:id/webhooks/:wid/deliveries/:did/redeliver admin admin-bearer',
  'POST /admin/v1/projects/:id/webhooks/:wid/test admin admin-bearer',
  'GET /admin/v1/projects/:id/mails admin admin-bearer',
  'POST /admin/v1/projects/:id/mails/:mailId/resend admin admin-bearer',
  'POST /admin/v1/projects/:id/blacklist admin admin-bearer',
  'POST /admin/v1/projects/:id/sites admin admin-bearer',
  'POST /admin/v1/projects/:id/variables admin admin-bearer',
  'POST /api/announcement legacy none',
  'POST /api/latest_version legacy none',
  'POST /api/app legacy md5',
  'POST /api/card_login legacy md5',
  'POST /api/check legacy none',
  'POST /api/kmlogon legacy none',
  'POST /api/kmunmachine legacy none',
  'POST /api/legacy/v1/app legacy md5',
  'POST /api/paycheck legacy none',
  'POST /api/unbind_machine legacy md5',
  'POST /api/verify legacy none',
  'POST /api/v1/apps/version standard hmac',
  'PUT /admin/v1/platform/interfaces/:name admin admin-bearer',
  'PUT /admin/v1/platform/settings admin admin-bearer',
  'PUT /admin/v1/projects/:id/connect admin admin-bearer',
  'PUT /admin/v1/projects/:id/entitlements admin admin-bearer',
  'PUT /admin/v1/projects/:id/interfaces/:name admin admin-bearer',
];

/**
 * The route snapshot, read from module and controller metadata without booting the application
 * (test/support/routes.ts); test/e2e/http/routing.e2e-spec.ts checks that the booted application's route
 * registry serves exactly these routes.
 */
describe('route snapshot', () => {
  const routes = declaredRoutes();

  it('lists every route with its family and auth scheme', () => {
    expect(routes.map((r) => `${r.method} ${r.path} ${r.family ?? '-'} ${r.auth ?? '-'}`).sort()).toEqual([...ROUTES].sort());
  });

  it("declares on every client or admin route the envelope its path's family renders errors in", () => {
    for (const route of routes) {
      if (route.family) expect(`${route.path} ${familyOfPath(route.path)}`).toBe(`${route.path} ${route.family}`);
    }
  });

  it('guards every route whose auth scheme is checked by a guard', () => {
    const guardOf: Partial<Record<string, string>> = {
      'admin-bearer': 'AdminAuthGuard',
      hmac: 'HmacGuard',
      md5: 'LegacyProgramGuard',
      'session-bearer': 'SessionBearerGuard',
    };
    for (const route of routes) {
      const guard = guardOf[route.auth ?? ''];
      if (guard) expect(`${route.method} ${route.path} ${route.guards.join(',')}`).toContain(guard);
    }
  });

  it('documents every route: a summary, and a success at the status the route really answers', () => {
    const undocumented: string[] = [];
    for (const route of routes) {
      const operation = Reflect.getMetadata(SWAGGER.API_OPERATION, route.handler) as { summary?: string } | undefined;
      const declared = Object.keys((Reflect.getMetadata(SWAGGER.API_RESPONSE, route.handler) as object | undefined) ?? {}).map(
        Number,
      );
      const answered = route.family === 'admin' || !route.family ? adminStatus(route) : 200;
      if (!operation?.summary) undocumented.push(`${route.method} ${route.path}: no summary`);
      if (!declared.includes(answered))
        undocumented.push(`${route.method} ${route.path}: answers ${answered}, documents ${declared.join(', ') || 'nothing'}`);
    }
    expect(undocumented).toEqual([]);
  });
});

/** @nestjs/swagger's metadata keys (its package does not export its constants). */
const SWAGGER = { API_OPERATION: 'swagger/apiOperation', API_RESPONSE: 'swagger/apiResponse' } as const;

/** What Nest answers on success: `@HttpCode`, else 201 for a POST and 200 for the rest (client families always 200). */
function adminStatus(route: DeclaredRoute): number {
  return (Reflect.getMetadata(HTTP_CODE_METADATA, route.handler) as number | undefined) ?? (route.method === 'POST' ? 201 : 200);
}
