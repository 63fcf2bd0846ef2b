// Nest 12 and the cache stack ship ESM only: SWC transpiles them (and our TypeScript) for Jest.
const esmPackages = [
  '@nestjs',
  '@nest-lab',
  'file-type',
  'strtok3',
  'token-types',
  'uint8array-extras',
  '@tokenizer',
  'load-esm',
  'uid',
  'cache-manager',
  'keyv',
  '@keyv',
  '@cacheable',
  'cacheable',
  'hookified',
  'qified',
  'content-disposition',
  'p-limit',
  'yocto-queue',
];
const swc = [
  '@swc/jest',
  {
    jsc: {
      parser: { syntax: 'typescript', decorators: true },
      transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: true },
      target: 'es2023',
      keepClassNames: true,
    },
    module: { type: 'commonjs' },
  },
];
const common = {
  testEnvironment: 'node',
  // Jest's runtime with V8's code cache, package sources and resolutions shared by the test files of a
  // worker (its header says why).
  runtime: '<rootDir>/test/support/code-cache-runtime.cjs',
  transform: { '^.+\\.(t|j|mj)s$': swc },
  transformIgnorePatterns: [`/node_modules/(?!(${esmPackages.join('|')})/)`],
  moduleFileExtensions: ['ts', 'js', 'mjs', 'json'],
};

/** Tests that run the application on a database: the e2e and service tiers. */
const onStores = {
  // One migrated template per run (embedded data directory or, with DATABASE_URL, a template
  // database); each test app starts from a copy of it, on stores of its own (test/support/stores.ts).
  testEnvironment: '<rootDir>/test/support/embedded-environment.ts',
  globalSetup: '<rootDir>/test/support/global-setup.ts',
  globalTeardown: '<rootDir>/test/support/global-teardown.ts',
  // argon2id at its lowest cost in the test apps (the service's own cost: passwords.spec.ts).
  setupFiles: ['<rootDir>/test/support/cheap-password-hashing.ts'],
};

module.exports = {
  projects: [
    // test/*.spec.ts: tests of the whole application that need no running instance (the route snapshot).
    { ...common, displayName: 'unit', testMatch: ['<rootDir>/src/**/*.spec.ts', '<rootDir>/test/**/*.spec.ts'] },
    { ...common, ...onStores, displayName: 'e2e', testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'], slowTestThreshold: 30 },
    // test/service/: the rules' branches through the domain services on the real database, no HTTP
    // (test/support/service-context.ts).
    { ...common, ...onStores, displayName: 'service', testMatch: ['<rootDir>/test/service/**/*.service-spec.ts'] },
  ],
  testTimeout: 60_000,
  // A worker per core on every runtime: no two test apps share a database or a Redis database.
  maxWorkers: '100%',
};
