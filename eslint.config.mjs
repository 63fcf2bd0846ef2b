import reactHooks from 'eslint-plugin-react-hooks';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      'dist/**', 'node_modules/**', 'coverage/**', 'sdk/dist/**', 'sdk/build/**', 'sdk/node_modules/**', 'data/**', '.build-*/**',
      'console/dist/**', 'console/test-results/**', 'console/src/api/schema.d.ts',
    ],
  },
  ...tseslint.configs.recommended,
  {
    files: ['**/*.ts'],
    languageOptions: { parserOptions: { project: './tsconfig.json', tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' }],
      'no-console': 'error',
    },
  },
  {
    // The official client is its own package with its own compiler settings.
    files: ['sdk/**/*.ts'],
    languageOptions: { parserOptions: { project: './sdk/tsconfig.json', tsconfigRootDir: import.meta.dirname } },
  },
  {
    // node:test's describe and it return promises that the runner itself awaits.
    files: ['sdk/test/**/*.ts'],
    rules: { '@typescript-eslint/no-floating-promises': 'off' },
  },
  {
    // The web console: browser code under its own compiler settings, with React's hook rules.
    files: ['console/src/**/*.{ts,tsx}'],
    ...reactHooks.configs.flat.recommended,
    languageOptions: { parserOptions: { project: './console/tsconfig.json', tsconfigRootDir: import.meta.dirname } },
    rules: {
      ...reactHooks.configs.flat.recommended.rules,
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      'no-console': 'error',
    },
  },
  {
    // The console's browser tests and build configuration run in Node.
    files: ['console/e2e/**/*.ts', 'console/*.ts'],
    languageOptions: { parserOptions: { project: './console/tsconfig.node.json', tsconfigRootDir: import.meta.dirname } },
  },
);
