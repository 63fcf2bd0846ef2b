'use strict';
/* eslint-disable @typescript-eslint/no-require-imports -- a CommonJS preload (-r): it must exist before the TypeScript it transpiles */
// Lets a child process run the service from its TypeScript sources (`node -r test/support/swc-register.cjs
// src/main.ts`), transpiled on load by SWC with the options Jest uses (jest.config.js): tests that must
// kill a real service process need no build. ESM-only packages load through Node's require(esm).
const { createHash } = require('node:crypto');
const { mkdirSync, readFileSync, renameSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');
const { transformSync } = require('@swc/core');

const OPTIONS = {
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: true },
    target: 'es2023',
    keepClassNames: true,
  },
  module: { type: 'commonjs' },
  sourceMaps: 'inline',
};

// Transpiled files are kept by the hash of their path, source and these options: a test that starts
// several service processes (a cluster, a restart) transpiles the ~300 sources once, not per process.
const CACHE_DIR = join(__dirname, '..', '..', 'node_modules', '.cache', 'ck-swc-register');
mkdirSync(CACHE_DIR, { recursive: true });
const OPTIONS_KEY = JSON.stringify([require('@swc/core/package.json').version, OPTIONS]);

function transpile(filename) {
  const source = readFileSync(filename, 'utf8');
  const cached = join(CACHE_DIR, `${createHash('sha1').update(OPTIONS_KEY).update(filename).update(source).digest('hex')}.js`);
  try {
    return readFileSync(cached, 'utf8');
  } catch {
    const { code } = transformSync(source, { ...OPTIONS, filename });
    // Written aside, then renamed into place: a process reading it at the same time sees all or nothing.
    const partial = `${cached}.${process.pid}`;
    writeFileSync(partial, code);
    renameSync(partial, cached);
    return code;
  }
}

require.extensions['.ts'] = (module, filename) => {
  module._compile(transpile(filename), filename);
};
