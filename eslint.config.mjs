import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/**', 'node_modules/**', 'coverage/**', 'sdk/dist/**', 'sdk/build/**', 'sdk/node_modules/**', 'data/**', '.build-*/**', 'test/openapi/schema.d.ts'] },
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
);
