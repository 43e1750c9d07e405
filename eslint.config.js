import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'data/', 'coverage/', '.tmp/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  {
    // The domain is pure: no I/O, no clock, no framework. Time and ids come in as arguments.
    files: ['src/domain/**/*.ts'],
    // Specs beside the deciders may use test tooling (domain-boundary.unit.spec.ts runs ESLint itself).
    ignores: ['src/domain/**/*.spec.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '^node:', message: 'domain/ does no I/O: pass what you need in as arguments' },
            { regex: '^(fs|crypto|http|https|net|path|os|child_process)$', message: 'domain/ does no I/O' },
            { regex: '^(pg|kysely|fastify|@electric-sql/.*|@fastify/.*)$', message: 'domain/ knows no database or HTTP' },
            {
              // common/ included: its hashing and ids use node:crypto.
              regex:
                '^(\\.\\./)+(application|auth|cli|export|http|ledger|projections|receipts|common|store|tenants|webhooks|test|scripts)(/|$)|^(\\.\\./)+(config|service|main)(\\.[jt]s)?$',
              message: 'domain/ depends on nothing outside itself',
            },
          ],
        },
      ],
      // `import('node:crypto')` would slip past no-restricted-imports.
      'no-restricted-syntax': ['error', { selector: 'ImportExpression', message: 'domain/ loads nothing at run time' }],
      'no-restricted-globals': [
        'error',
        { name: 'Date', message: 'time comes in as an argument' },
        { name: 'crypto', message: 'ids and hashes come in as arguments' },
        { name: 'process', message: 'settings come in as arguments' },
        { name: 'fetch', message: 'domain/ does no I/O' },
      ],
      'no-restricted-properties': [
        'error',
        ...['Date', 'crypto', 'process', 'fetch'].map((property) => ({ object: 'globalThis', property, message: 'domain/ does no I/O' })),
      ],
    },
  },
  {
    files: ['bin/**/*.js'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
  },
);
