import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['dist/', 'node_modules/', 'data/', 'coverage/'] },
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
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '^node:', message: 'domain/ does no I/O: pass what you need in as arguments' },
            { regex: '^(fs|crypto|http|https|net|path|os|child_process)$', message: 'domain/ does no I/O' },
            { regex: '^(pg|kysely|fastify|@electric-sql/.*|@fastify/.*)$', message: 'domain/ knows no database or HTTP' },
            { regex: '\\.\\./(application|http|ledger|store|tenants)/', message: 'domain/ depends on nothing outside itself' },
          ],
        },
      ],
      'no-restricted-globals': ['error', { name: 'Date', message: 'time comes in as an argument' }],
      'no-restricted-properties': ['error', { object: 'crypto', property: 'randomUUID', message: 'ids come in as arguments' }],
    },
  },
  {
    files: ['bin/**/*.js'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
  },
);
