/**
 * The layer rules of src/ (README "Layers"), checked in CI by `npm run deps:check`.
 * core/ (framework-neutral rules, errors, crypto, stores) < common/ < http/ (Nest plumbing) < the
 * domain modules; an arrow never runs back down-to-up, no file-level or folder-level cycle, and a migration is frozen
 * (it never imports live code that may change after it ran). Specs are left out: a test may import
 * whatever it exercises.
 */
const LOWER = 'core|config|common|http';
const DOMAIN = `^src/(?!(?:${LOWER})/)[^/]+/`;

/** A folder loop the domain has a direction for: `from` may import `to`, never the reverse. */
const oneWay = (lower, upper, why) => ({
  name: `${lower}-not-up-to-${upper}`,
  comment: why,
  severity: 'error',
  from: { path: `^src/${lower}/` },
  to: { path: `^src/${upper}/` },
});

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      comment: 'A file-level import cycle: the load order decides which side sees undefined.',
      severity: 'error',
      from: { path: '^src/' },
      // A cycle made only of `import type` has no load order; every other cycle is an error.
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
    {
      name: 'no-folder-cycle',
      comment:
        'A folder that imports, through any others, a folder that imports it: the domain has no direction there. A folder holds its subfolders, so a module file composing its own subfolders is no cycle; two sibling subfolders importing each other are.',
      severity: 'error',
      scope: 'folder',
      from: { path: '^src/' },
      to: { circular: true, viaOnly: { dependencyTypesNot: ['type-only'] } },
    },
    {
      name: 'core-is-framework-neutral',
      comment: 'core/ imports no HTTP layer, no domain module, and no HTTP framework.',
      severity: 'error',
      from: { path: '^src/core/' },
      to: {
        path: [`^src/(?!(?:core|config)/)[^/]+/`, '(^|/)node_modules/(@nestjs/core|@nestjs/platform-[^/]+|express|fastify)/'],
      },
    },
    {
      name: 'common-below-http',
      comment: 'common/ (field rules, paging, id pipes) sits on core/ only.',
      severity: 'error',
      from: { path: '^src/common/' },
      to: { path: `^src/(?!(?:core|config|common)/)[^/]+/` },
    },
    {
      name: 'config-is-a-leaf',
      comment: 'The configuration is read by every layer and imports none of them.',
      severity: 'error',
      from: { path: '^src/config/' },
      to: { path: `^src/(?!config/)[^/]+/` },
    },
    {
      name: 'http-not-up-to-domain',
      comment: 'http/ (guards, pipes, envelope, request context) knows no domain module.',
      severity: 'error',
      from: { path: '^src/http/' },
      to: { path: DOMAIN },
    },
    {
      name: 'admin-kernel-below-resources',
      comment:
        'admin-kernel/ (the principal, the account entity, route metadata, @AdminAuth, @StepUp and the checks they hand requests to) sits under every admin resource: it imports the lower layers and the database plumbing only.',
      severity: 'error',
      from: { path: '^src/admin-kernel/' },
      to: { path: `^src/(?!(?:${LOWER}|admin-kernel|database)/)[^/]+/` },
    },
    {
      name: 'admin-auth-above-resources',
      comment:
        "A resource reaches sign-in, step-up and an account's sessions through the kernel's checks, which the global AdminAuthModule provides: only the application module imports admin-auth/.",
      severity: 'error',
      from: { path: '^src/', pathNot: '^src/(admin-auth/|app\\.module\\.ts$)' },
      to: { path: '^src/admin-auth/' },
    },
    {
      name: 'domain-services-not-request-context',
      comment:
        'Domain services take and return data and never touch the request context (issue 40): what the HTTP layer must know comes back on the answer or the refusal. The audit trail is the exception: it records HTTP requests as such, handed to it by its interceptor and the guards.',
      severity: 'error',
      from: { path: [`${DOMAIN}.*\\.service\\.ts$`, '^src/cards/'], pathNot: '^src/audit/audit-trail\\.service\\.ts$' },
      to: { path: '^src/http/request-context\\.ts$' },
    },
    {
      name: 'migrations-are-frozen',
      comment: 'A migration never imports live code: what it ran must not change after it ran.',
      severity: 'error',
      from: { path: '^migrations/' },
      to: { path: '^src/' },
    },
    {
      name: 'src-not-test-or-bench',
      comment: 'The service never loads test or bench code.',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^(test|bench)/' },
    },
    oneWay('cards', 'sessions', 'A session is opened on a card; a card knows nothing of sessions.'),
    oneWay(
      'login-blacklist',
      'access',
      'The interface gate applies the blacklist; the blacklist takes the program fields it reads.',
    ),
    oneWay('admin-auth', 'access', 'Client access and admin sign-in share only http/ helpers (body-field.ts).'),
    oneWay('admin-auth', 'login-blacklist', 'API keys match CIDRs with the matcher in common/.'),
    oneWay('admin-auth', 'legacy', 'Shared field rules live in common/field-rules.ts.'),
    oneWay('audit', 'cards', 'CSV quoting lives in common/csv.ts.'),
    oneWay('projects', 'audit', 'A service leaves audit notes through common/audit-note.ts; audit reads projects.'),
    oneWay('cards', 'audit', 'A service leaves audit notes through common/audit-note.ts.'),
    oneWay('login-logs', 'agents', "The sales view is the orders' (orders/sales-item.view.ts)."),
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(\\.spec\\.ts$|\\.d\\.ts$)' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    preserveSymlinks: false,
  },
};
