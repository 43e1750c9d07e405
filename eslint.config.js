import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const DOMAIN_ONLY = 'domain/ depends on nothing outside itself: no I/O, no packages; pass what you need in as arguments';

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
      // An allow-list: a domain file imports only other domain files (no package, no node: module).
      'no-restricted-imports': ['error', { patterns: [{ regex: '^(?!\\.\\.?/)', message: DOMAIN_ONLY }] }],
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
  // ...and a relative import that leaves src/domain, whatever the importing file's depth.
  ...[1, 2, 3, 4].map((depth) => ({
    files: [`src/domain/${'*/'.repeat(depth - 1)}*.ts`],
    ignores: ['src/domain/**/*.spec.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            { regex: '^(?!\\.\\.?/)', message: DOMAIN_ONLY },
            { regex: `^(\\.\\./){${depth}}`, message: DOMAIN_ONLY },
          ],
        },
      ],
    },
  })),
  {
    // Tool configurations in CommonJS (dependency-cruiser reads .cjs).
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { module: 'writable', require: 'readonly' } },
  },
  {
    files: ['bin/**/*.js'],
    languageOptions: { globals: { process: 'readonly', console: 'readonly' } },
  },
);
