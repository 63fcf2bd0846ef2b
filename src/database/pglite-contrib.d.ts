// PGlite's contrib extensions are exported by subpath (package.json "exports"), which this
// project's module resolution does not read; the package ships the type below.
declare module '@electric-sql/pglite/contrib/pg_trgm' {
  import type { Extension } from '@electric-sql/pglite';

  export const pg_trgm: Extension;
}
