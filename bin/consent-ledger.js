#!/usr/bin/env node
// The operator CLI's launcher: `npx consent-ledger <command>` from the project folder (npm 10+
// runs a project's own bin by name without asking the registry; see src/cli/README.md).
// It runs the compiled CLI (dist/, built by `npm ci` through the "prepare" script, or by
// `npm run build`). It stays plain JavaScript so it works before anything is compiled.
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cli = join(root, 'dist', 'src', 'cli', 'cli.js');

if (!existsSync(cli)) {
  process.stderr.write(
    `consent-ledger: the CLI is not built (${cli} is missing).\n` +
      `Run \`npm run build\` in ${root} (or \`npm ci\`, which builds it), then try again.\n`,
  );
  process.exit(1);
}

const { main } = await import(pathToFileURL(cli).href);
process.exitCode = await main(process.argv.slice(2));
