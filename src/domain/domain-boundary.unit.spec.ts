import { fileURLToPath } from 'node:url';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

// The project's own eslint.config.js, run the way `npx eslint src/domain` runs it, on code that is
// never written to disk: the file path alone decides which rules apply.
const root = fileURLToPath(new URL('../..', import.meta.url));
let eslint: ESLint;
beforeAll(() => {
  eslint = new ESLint({ cwd: root });
});

/** The rules that fire on `code` as if it were saved at `filePath` (relative to the repository root). */
async function violations(code: string, filePath = 'src/domain/policy/boundary-probe.ts'): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: `${root}${filePath}` });
  const fatal = result!.messages.filter((m) => m.fatal);
  if (fatal.length > 0) throw new Error(`the probe does not parse: ${fatal.map((m) => m.message).join('; ')}`);
  return result!.messages.filter((m) => m.severity === 2).map((m) => m.ruleId ?? 'unknown');
}

describe('domain boundary › when domain code does I/O or reaches outside the domain', () => {
  it.each([
    ['node:crypto', `import { createHash } from 'node:crypto';\nexport const h = createHash('sha256');\n`],
    ['bare crypto', `import { randomUUID } from 'crypto';\nexport const id = randomUUID();\n`],
    ['node:fs', `import { readFileSync } from 'node:fs';\nexport const f = readFileSync;\n`],
    ['a re-export of node:crypto', `export { createHash } from 'node:crypto';\n`],
    ['pg', `import pg from 'pg';\nexport const p = pg;\n`],
    ['kysely', `import { sql } from 'kysely';\nexport const s = sql;\n`],
    ['fastify', `import Fastify from 'fastify';\nexport const f = Fastify;\n`],
    ['the ledger', `import type { Ledger } from '../../ledger/ledger.port.js';\nexport type L = Ledger;\n`],
    ['the application layer', `import { CommandHandler } from '../../application/command-handler.js';\nexport const h = CommandHandler;\n`],
    ['common/ (which hashes with node:crypto)', `import { sha256Hex } from '../../common/hashing.js';\nexport const h = sha256Hex;\n`],
    ['the configuration', `import { loadSettings } from '../../config.js';\nexport const l = loadSettings;\n`],
    // The rule is an allow-list: folders it never named are outside the domain too.
    ['privacy/ (a folder a deny-list forgot)', `import { Privacy } from '../../privacy/privacy.js';\nexport const p = Privacy;\n`],
    ['a feature folder added later', `import { x } from '../../limits/some-new-file.js';\nexport const y = x;\n`],
    ['a package with no I/O', `import { Type } from '@sinclair/typebox';\nexport const t = Type;\n`],
  ])('fails lint on an import of %s', async (_what, code) => {
    expect(await violations(code)).toContain('no-restricted-imports');
  });

  it('fails lint on a dynamic import, which no-restricted-imports does not see', async () => {
    expect(await violations(`export const load = () => import('node:crypto');\n`)).toContain('no-restricted-syntax');
  });

  it.each([
    ['the clock', `export const now = () => new Date().toISOString();\n`, 'no-restricted-globals'],
    ['Date.now', `export const now = () => Date.now();\n`, 'no-restricted-globals'],
    ['a random id', `export const id = () => crypto.randomUUID();\n`, 'no-restricted-globals'],
    ['Web Crypto through globalThis', `export const id = () => globalThis.crypto.randomUUID();\n`, 'no-restricted-properties'],
    ['the environment', `export const level = () => process.env.LOG_LEVEL;\n`, 'no-restricted-globals'],
    ['the network', `export const get = (u: string) => fetch(u);\n`, 'no-restricted-globals'],
  ])('fails lint on a use of %s', async (_what, code, rule) => {
    expect(await violations(code)).toContain(rule);
  });

  it('applies to every file under src/domain, at any depth', async () => {
    const code = `import { createHash } from 'node:crypto';\nexport const h = createHash;\n`;
    expect(await violations(code, 'src/domain/errors-probe.ts')).toContain('no-restricted-imports');
    expect(await violations(code, 'src/domain/consent/deeper/probe.ts')).toContain('no-restricted-imports');
  });
});

describe('domain boundary › when domain code stays pure', () => {
  it('passes lint on imports within the domain and on time and ids passed in as arguments', async () => {
    const code = [
      `import { DomainError } from '../errors.js';`,
      `import type { PolicyState } from '../policy/policy.decider.js';`,
      `import { consentHashInput } from '../consent/consent-hash.js';`,
      `export const stamp = (state: PolicyState, now: string, id: string) => ({ state, now, id, consentHashInput });`,
      `export const refuse = () => new DomainError('NOT_FOUND', 'not found');`,
      '',
    ].join('\n');
    expect(await violations(code)).toEqual([]);
  });

  it('leaves code outside src/domain free to do I/O', async () => {
    const code = `import { createHash } from 'node:crypto';\nexport const h = () => createHash('sha256').update(String(Date.now())).digest('hex');\n`;
    expect(await violations(code, 'src/common/boundary-probe.ts')).toEqual([]);
  });

  it('finds no violation in the domain code as it is', async () => {
    const results = await eslint.lintFiles(['src/domain/**/*.ts']);
    const errors = results.flatMap((r) => r.messages.filter((m) => m.severity === 2).map((m) => `${r.filePath}: ${m.ruleId} ${m.message}`));
    expect(errors).toEqual([]);
    expect(results.length).toBeGreaterThan(5);
  });
});
