/** What an admin route acts on, read from its pattern (one rule for every route, present and future). */
export interface RouteTarget {
  action: string;
  resourceType: string;
  resourceId: string | null;
  projectId: string | null;
}

/** A last segment that names what is done rather than a resource. */
const VERBS = new Set([
  'rotate',
  'revoke',
  'bulk',
  'import',
  'login',
  'logout',
  'enrol',
  'confirm',
  'disable',
  'redeliver',
  'resend',
  'test',
  'credits',
  'refund',
]);
const BY_METHOD: Record<string, string> = { POST: 'create', PUT: 'update', PATCH: 'update', DELETE: 'delete' };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * `PATCH /admin/v1/projects/:id/cards/:cardId` → `cards.update` on `cards` `17` of project `:id`;
 * `POST …/secrets/:name/rotate` → `secrets.rotate` on `secrets` `api_secret`; `PUT /platform/settings`
 * → `platform.settings.update`. A creation's id comes from its answer (`id`, else `batch_id`).
 */
export function targetOf(method: string, pattern: string, params: Record<string, string>, answer: unknown): RouteTarget {
  const segments = pattern
    .replace(/^\/?admin\/v1\/?/, '')
    .split('/')
    .filter(Boolean);
  // The account's own routes name what was done: auth.login, auth.login.2fa, auth.2fa.enrol, auth.logout.
  if (segments[0] === 'auth') return { action: segments.join('.'), resourceType: 'auth', resourceId: null, projectId: null };
  let verb = BY_METHOD[method] ?? method.toLowerCase();
  const last = segments[segments.length - 1];
  if (segments.length > 1 && method === 'POST' && !last.startsWith(':') && VERBS.has(last)) {
    verb = last;
    segments.pop();
  }
  const inProject = segments[0] === 'projects' && segments[1] === ':id';
  const rest = inProject && segments.length > 2 ? segments.slice(2) : segments;
  const nouns = rest.filter((s) => !s.startsWith(':'));
  const ids = rest.filter((s) => s.startsWith(':')).map((s) => params[s.slice(1)]);
  const answered = answer && typeof answer === 'object' ? (answer as Record<string, unknown>) : {};
  const createdId = method === 'POST' && ids.length === 0 ? (answered.id ?? answered.batch_id ?? null) : null;
  const resourceId = ids.length ? ids.join('/') : createdId === null ? null : String(createdId);
  const resourceType = (nouns.join('.') || 'projects').slice(0, 40);
  let projectId = inProject ? (params.id ?? null) : null;
  if (!projectId && resourceType === 'projects' && resourceId && UUID.test(resourceId)) projectId = resourceId;
  return {
    action: `${resourceType}.${verb}`.slice(0, 80),
    resourceType,
    resourceId: resourceId?.slice(0, 128) ?? null,
    projectId: projectId && UUID.test(projectId) ? projectId : null,
  };
}
