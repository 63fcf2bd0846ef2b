'use strict';
/* eslint-disable @typescript-eslint/no-require-imports -- a CommonJS preload (-r): it must exist before the TypeScript it transpiles */
// Lets a child process run the service from its TypeScript sources (`node -r test/support/swc-register.cjs
// src/main.ts`), transpiled on load by SWC with the options Jest uses (jest.config.js): tests that must
// kill a real service process need no build. ESM-only packages load through Node's require(esm).
const { readFileSync } = require('node:fs');
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

require.extensions['.ts'] = (module, filename) => {
  module._compile(transformSync(readFileSync(filename, 'utf8'), { ...OPTIONS, filename }).code, filename);
};
