'use strict';
/* eslint-disable @typescript-eslint/no-require-imports -- Jest requires a project's `runtime` with Node's require, untransformed */
// Jest's runtime, with V8's code cache, the packages' sources and the resolutions kept across the test
// files of a worker (jest.config.js `runtime`).
//
// Jest gives each test file a module registry of its own and compiles every module again for it,
// with vm.compileFunction, which V8's own compilation cache does not serve: an e2e file compiled
// the same ~3,000 modules (Nest, TypeORM, the service) that the file before it had, about 0.7 s of a
// file's 2–3 s of overhead. Here the first compilation of a module in a worker produces V8's code
// cache for it, and later files compile the same source from that cache. Each file still evaluates
// its modules afresh in its own context: only the parsing is shared, so the files stay as isolated
// as before. A cache that V8 rejects (another V8, other flags) falls back to a plain compilation.
const vm = require('node:vm');
const { default: Runtime } = require('jest-runtime');

const compileFunction = vm.compileFunction;
/** filename → the source last compiled under it and V8's code cache for that source. */
const codeCache = new Map();

/**
 * A module with a dynamic import() is compiled afresh in each file: code compiled from V8's cache
 * keeps the import callback of the file that first compiled it, and import() in a later file then
 * throws "A dynamic import callback was not specified" (PGlite imports its WebAssembly that way).
 */
const DYNAMIC_IMPORT = /\bimport\(/;

function compileWithCodeCache(code, params, options) {
  const filename = options && options.filename;
  if (!filename || DYNAMIC_IMPORT.test(code)) return compileFunction(code, params, options);
  const cached = codeCache.get(filename);
  if (cached && cached.code === code) {
    const compiled = compileFunction(code, params, { ...options, cachedData: cached.data });
    if (!compiled.cachedDataRejected) return compiled;
  }
  const compiled = compileFunction(code, params, { ...options, produceCachedData: true });
  if (compiled.cachedDataProduced && compiled.cachedData) codeCache.set(filename, { code, data: compiled.cachedData });
  return compiled;
}

// jest-runtime looks compileFunction up on node:vm at each call. Any other caller in the worker gets
// the same compilation, cached by file name and source the same way.
vm.compileFunction = compileWithCodeCache;

/** filename → its source, for installed packages only (the project's own files may change during a run). */
const packageSources = new Map();
/** Per project configuration: Jest's resolutions (`from\0request` → file), CommonJS and ESM. */
const resolutions = new Map();

/**
 * Jest gives each test file a runtime of its own, with a file cache and resolution caches of its
 * own: every file opened, read and resolved again the same ~3,000 modules that the file before it
 * had (about a quarter of a second a file). Within a worker, the installed packages' sources and
 * every resolution are kept for the next files of the same project configuration: neither changes
 * during a run, and each file still evaluates its modules afresh in its own registry. `fileCache` and
 * `_resolution`'s caches are jest-runtime 30's own fields: a Jest that renames them fails every file
 * here at once, rather than running without the sharing.
 */
class SharedLoadingRuntime extends Runtime {
  constructor(config, ...rest) {
    super(config, ...rest);
    const files = this.fileCache;
    const readFile = files.readFile.bind(files);
    files.readFile = (filename) => {
      if (!filename.includes('/node_modules/')) return readFile(filename);
      let source = packageSources.get(filename);
      if (source === undefined) packageSources.set(filename, (source = readFile(filename)));
      return source;
    };
    const resolution = this._resolution;
    if (!(resolution?.cjsCache instanceof Map && resolution.esmCache instanceof Map))
      throw new Error('jest-runtime has no _resolution.cjsCache/esmCache: share the resolutions another way');
    let shared = resolutions.get(config.id);
    if (!shared) resolutions.set(config.id, (shared = { cjs: new Map(), esm: new Map() }));
    resolution.cjsCache = shared.cjs;
    resolution.esmCache = shared.esm;
  }
}

module.exports = SharedLoadingRuntime;
