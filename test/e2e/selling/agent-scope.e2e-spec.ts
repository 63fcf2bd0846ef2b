import { AdminClient, login } from '../../support/admin-client';
import { balanceOf, createAgent, createType, credit, TestAgent } from '../../support/agents';
import { declaredRoutes } from '../../support/routes';
import { startTestApp, TestApp } from '../../support/test-app';

/**
 * The routes an agent's token reaches (decisions §19): its sign-in, its own profile and view of
 * cards, its sub-agents, and orders on its projects. Any route added to that scope must be added
 * here, with a reason; every other admin route answers an agent 403 or 404.
 */
const AGENT_ROUTES = new Set([
  'GET /admin/v1/auth/me',
  'POST /admin/v1/auth/logout',
  'POST /admin/v1/auth/2fa/enrol',
  'POST /admin/v1/auth/2fa/confirm',
  'POST /admin/v1/auth/2fa/disable',
  // every account changes its own password (docs/decisions.md "Own password")
  'POST /admin/v1/auth/password',
  'GET /admin/v1/agents',
  'POST /admin/v1/agents',
  'GET /admin/v1/agents/me',
  'GET /admin/v1/agents/:id',
  'PATCH /admin/v1/agents/:id',
  'GET /admin/v1/agents/:id/ledger',
  'POST /admin/v1/agents/:id/credits',
  'GET /admin/v1/agents/:id/sales',
  // a parent sets its sub-agents' prices as it sets their discount
  'GET /admin/v1/agents/:id/prices',
  'PUT /admin/v1/agents/:id/prices/:typeId',
  'DELETE /admin/v1/agents/:id/prices/:typeId',
  'GET /admin/v1/agents/me/card-types',
  'GET /admin/v1/agents/me/cards',
  'GET /admin/v1/agents/me/cards/export.csv',
  'PATCH /admin/v1/agents/me/cards/:cardId',
  'DELETE /admin/v1/agents/me/cards/:cardId/devices/:machine',
  'GET /admin/v1/projects/:id/orders',
  'POST /admin/v1/projects/:id/orders',
  'GET /admin/v1/projects/:id/orders/:orderId',
  // a shop selling for the agent places its orders with the agent's own key (docs/shop-integration.md)
  'GET /admin/v1/api-keys',
  'POST /admin/v1/api-keys',
  'DELETE /admin/v1/api-keys/:keyId',
]);

/** Bodies valid in form for the routes of the agent's scope, so that what answers is the scope rule, not validation. */
const BODIES: Record<string, object> = {
  'POST /admin/v1/projects/:id/orders': { order_id: 'probe', card_type_id: 2147483647, count: 1 },
  'POST /admin/v1/agents/:id/credits': { amount_cents: 1 },
  'PATCH /admin/v1/agents/:id': { discount_percent: 0 },
  'PUT /admin/v1/agents/:id/prices/:typeId': { price_cents: 0 },
};

describe('an agent reaches nothing outside its scope (every admin route probed, e2e)', () => {
  let t: TestApp;
  let author: AdminClient;
  let agent: TestAgent;
  let ids: Record<string, string>;
  const adminRoutes = declaredRoutes().filter((r) => r.path.startsWith('/admin/') && r.auth === 'admin-bearer');

  beforeAll(async () => {
    t = await startTestApp();
    const admin = await AdminClient.asPlatformAdmin(t);
    author = (await admin.createAuthor()).client;
    const other = (await admin.createAuthor()).client;
    const own = await author.createProject();
    const foreign = await other.createProject();
    const ownType = await createType(author, own.id);
    const foreignType = await createType(other, foreign.id);
    agent = await createAgent(t, author, {
      project_ids: [own.id],
      discount_percent: 10,
      can_ban: true,
      can_unbind: true,
      can_create_sub_agents: true,
    });
    await credit(author, agent.id, 100_000);
    const ownCard = (
      await agent.client
        .post(`/admin/v1/projects/${own.id}/orders`, { order_id: 'mine', card_type_id: ownType.id, count: 1 })
        .expect(201)
    ).body.items[0];
    const foreignCard = (
      await other.post(`/admin/v1/projects/${foreign.id}/cards`, { count: 1, duration_seconds: 60 }).expect(201)
    ).body.items[0];
    const foreignAgent = await createAgent(t, other, { project_ids: [foreign.id] });
    const sibling = await createAgent(t, author, { project_ids: [own.id] });
    ids = {
      ownProject: own.id,
      foreignProject: foreign.id,
      ownCard: String(ownCard.id),
      foreignCard: String(foreignCard.id),
      foreignAgent: foreignAgent.id,
      sibling: sibling.id,
      ownType: String(ownType.id),
      foreignType: String(foreignType.id),
      authorId: (await author.get('/admin/v1/auth/me')).body.id,
    };
  });
  afterAll(() => t.close());

  /** A concrete path: project routes on `project`, agents routes on `agentId`, other ids on things that exist but are not the agent's. */
  const concrete = (path: string, project: string, agentId: string) =>
    path
      .replace(/^\/admin\/v1\/projects\/:id/, `/admin/v1/projects/${project}`)
      .replace(/^\/admin\/v1\/agents\/:id/, `/admin/v1/agents/${agentId}`)
      .replace(/^\/admin\/v1\/authors\/:id/, `/admin/v1/authors/${ids.authorId}`)
      .replace(':cardId', ids.foreignCard)
      .replace(':typeId', ids.foreignType)
      .replace(/:[A-Za-z]+/g, '1');

  /** Uploads go in the media type their route takes (any other is refused 415 before anyone is asked who calls). */
  const probe = async (method: string, path: string, body: object = {}) => {
    const request = t.http()[method.toLowerCase() as 'get'](path).set(agent.client.auth());
    if (path.endsWith('/cards/import')) return request.set('Content-Type', 'text/csv').send('code\nPROBE\n');
    if (/\/projects\/[^/]+\/files$/.test(path)) return request.attach('file', Buffer.from('probe'), 'probe.txt');
    return method === 'GET' || method === 'DELETE' ? request : request.send(body);
  };

  it('lists only routes the application declares', () => {
    const listed = new Set(adminRoutes.map((r) => `${r.method} ${r.path}`));
    for (const route of AGENT_ROUTES) expect(listed).toContain(route);
  });

  it.each([
    ['its own project', 'ownProject'],
    ["another author's project", 'foreignProject'],
  ])('answers 403 or 404 on every other admin route, on %s', async (_, projectKey) => {
    const leaks: string[] = [];
    for (const route of adminRoutes) {
      const key = `${route.method} ${route.path}`;
      if (route.path === '/admin/v1/auth/logout') continue; // probed last, below
      const res = await probe(route.method, concrete(route.path, ids[projectKey], ids.foreignAgent), BODIES[key]);
      const refused = res.status === 403 || res.status === 404;
      if (AGENT_ROUTES.has(key)) {
        // In scope, the route still refuses what is not the agent's: another author's project or agent.
        const ownData =
          route.path.startsWith('/admin/v1/auth') ||
          route.path.startsWith('/admin/v1/api-keys') ||
          route.path.startsWith('/admin/v1/agents/me') ||
          key === 'GET /admin/v1/agents' ||
          key === 'POST /admin/v1/agents';
        const onOwnProject = route.path.startsWith('/admin/v1/projects/') && projectKey === 'ownProject';
        if (!ownData && !onOwnProject && !refused) leaks.push(`${key} → ${res.status}`);
        if (res.status >= 500) leaks.push(`${key} → ${res.status}`);
      } else if (!refused) {
        leaks.push(`${key} → ${res.status}`);
      }
    }
    expect(leaks).toEqual([]);
  });

  it("never lets an agent act on a sibling or its author's other agents, nor credit itself", async () => {
    for (const path of ['', '/ledger', '/sales'])
      expect((await probe('GET', `/admin/v1/agents/${ids.sibling}${path}`)).status).toBe(404);
    expect((await probe('POST', `/admin/v1/agents/${ids.sibling}/credits`, { amount_cents: 1 })).status).toBe(404);
    expect((await probe('POST', `/admin/v1/agents/${agent.id}/credits`, { amount_cents: 1 })).status).toBe(403);
    expect((await probe('PATCH', `/admin/v1/agents/${agent.id}`, { discount_percent: 90 })).status).toBe(403);
    expect(await balanceOf(t, agent.id)).toBe(100_000 - 900);
  });

  it('signs out with its own token', async () => {
    const token = await login(t, agent.username, agent.password);
    await t.http().post('/admin/v1/auth/logout').set('Authorization', `Bearer ${token}`).expect(204);
    await t.http().get('/admin/v1/agents/me').set('Authorization', `Bearer ${token}`).expect(401);
  });
});
