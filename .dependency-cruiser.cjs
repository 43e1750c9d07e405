/**
 * The direction of imports (`npm run deps`, part of `npm run check`). Folders depend on each other
 * in one direction only; the rules below name the layers that must stay leaves. See
 * docs/architecture.md, "Layers".
 */
module.exports = {
  forbidden: [
    {
      name: 'no-folder-cycle',
      comment: 'Two folders import each other, directly or through others: move the shared piece down, or inject it at wiring time.',
      severity: 'error',
      scope: 'folder',
      from: {},
      to: { circular: true },
    },
    {
      name: 'no-module-cycle',
      comment: 'Two modules import each other, directly or through others.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'domain-is-pure',
      comment: 'src/domain imports nothing but src/domain: no I/O, no node: modules, no packages (time and ids come in as arguments).',
      severity: 'error',
      from: { path: '^src/domain/' },
      to: { pathNot: '^src/domain/' },
    },
    {
      name: 'http-kit-is-a-leaf',
      comment: 'src/http/kit (envelope, errors, validation, headers) serves every route and imports no feature.',
      severity: 'error',
      from: { path: '^src/http/kit/' },
      to: {
        path: '^(src|projections)/',
        pathNot: '^src/(http/kit|domain|common)/|^src/ledger/ledger[.]port[.]ts$|^src/store/database-errors[.]ts$',
      },
    },
    {
      name: 'routes-hold-no-database',
      comment:
        'A route reaches data through the services it is given (query services, commands), never the database or a read-model query module.',
      severity: 'error',
      from: { path: '^src/http/' },
      to: {
        path: '^projections/|^src/store/|^src/ledger/(postgres|eventstoredb)/|^node_modules/(kysely|pg|@electric-sql)/',
        pathNot: '^src/store/database-errors[.]ts$',
      },
    },
    {
      name: 'settings-at-the-top',
      comment: 'src/config.ts (the environment) is read by the entry points only; a part declares the settings it takes.',
      severity: 'error',
      from: { pathNot: '^src/(main|service)[.]ts$|^src/cli/' },
      to: { path: '^src/config[.]ts$' },
    },
  ],
  options: {
    tsConfig: { fileName: 'tsconfig.json' },
    tsPreCompilationDeps: true,
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '[.]spec[.]ts$|^src/ledger/ledger[.]contract[.]ts$' },
  },
};
