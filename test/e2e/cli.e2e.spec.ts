import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Service } from '../../src/service.js';
import { repoRoot, runCommand } from '../support/process.js';
import { browserClient, client, listedAdminKey, publishPolicy } from '../support/service.js';
import { cli, cliBin, cliEngines, onEngine } from '../support/cli.js';
import { connectingAs, freshDatabase, serverUrl, tablesIn } from '../support/stores.js';

/**
 * The operator CLI (docs/contract.md "Identity, tenants, keys"; DESIGN.md "Read models are
 * disposable"), run as operators run it: the real bin, built, in a child process, on the same
 * settings as the service. What it changes is then checked through the service's HTTP API.
 */

const root = repoRoot;
const bin = cliBin;
const API_KEY = /^ck_[0-9A-Za-z]{24}$/;
const API_SECRET = /^cs_[0-9A-Za-z]{40}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** Polls until `condition` holds; throws after `timeoutMs`. */
async function waitUntil(condition: () => Promise<boolean>, what: string, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const engines = cliEngines('cli.e2e');

beforeAll(() => {
  // The bin runs the compiled CLI, which test/global-setup.ts built from the sources under test.
  expect(existsSync(join(root, 'dist', 'src', 'cli', 'cli.js'))).toBe(true);
});

describe('cli › when the arguments are wrong › exits 2 with a clear message, touching no store', () => {
  let dir: string;
  let env: Record<string, string>;
  beforeAll(() => {
    dir = join(mkdtempSync(join(tmpdir(), 'cl-cli-usage-')), 'never-created');
    env = { DATA_DIR: dir };
  });
  afterAll(() => rmSync(join(dir, '..'), { recursive: true, force: true }));

  it.each([
    ['no command', [], /no command/],
    ['an unknown command', ['tenants', 'list'], /unknown command "tenants"/],
    ['the service, which is no command', ['serve'], /unknown command "serve": the service itself starts with `npm start`/],
    ['an unknown subcommand', ['tenant', 'delete'], /unknown command "tenant delete"/],
    ['a group without a subcommand', ['key'], /"key" needs a subcommand/],
    ['a missing --plan', ['tenant', 'create', '--name', 'Acme'], /--plan is required/],
    ['a missing --name', ['tenant', 'create', '--plan', 'pro'], /--name is required/],
    ['an empty --name', ['tenant', 'create', '--name', ' ', '--plan', 'pro'], /--name must be 1 to 200 characters/],
    [
      'an unknown plan',
      ['tenant', 'create', '--name', 'Acme', '--plan', 'gold'],
      /--plan must be one of free, starter, pro, business, enterprise/,
    ],
    ['an unknown option', ['tenant', 'list', '--all'], /Unknown option '--all'/],
    ['a stray argument', ['tenant', 'list', 'now'], /Unexpected argument 'now'/],
    ['a tenant id that is not one', ['tenant', 'set-plan', '--id', '42', '--plan', 'pro'], /--id must be a tenant id/],
    ['set-plan with nothing to change', ['tenant', 'set-plan', '--id', '00000000-0000-4000-8000-000000000000'], /say what to change/],
    [
      'a zero limit',
      ['tenant', 'set-plan', '--id', '00000000-0000-4000-8000-000000000000', '--per-minute', '0'],
      /--per-minute must be a whole number/,
    ],
    [
      'a negative limit, read as the value it is',
      ['tenant', 'set-plan', '--id', '00000000-0000-4000-8000-000000000000', '--per-minute', '-5'],
      /--per-minute must be a whole number/,
    ],
    [
      'a fractional limit',
      ['tenant', 'set-plan', '--id', '00000000-0000-4000-8000-000000000000', '--per-day', '2.5'],
      /--per-day must be a whole number/,
    ],
    ['key create without --tenant', ['key', 'create'], /--tenant is required/],
    ['a backup to stdout, which carries the summary', ['backup', '--out', '-'], /--out must be a file: stdout carries the summary/],
    ['an option without its value, last', ['key', 'create', '--scope', 'read', '--tenant'], /--tenant needs a value/],
    [
      'an option without its value, another option next (an empty shell variable)',
      ['key', 'create', '--tenant', '--scope', 'read'],
      /--tenant needs a value \(one that starts with a dash is written --tenant=-value\)/,
    ],
    [
      'a malformed API key',
      ['key', 'revoke', '--tenant', '00000000-0000-4000-8000-000000000000', '--key', 'cs_secret'],
      /--key must be an API key/,
    ],
  ])('%s', async (_label, args, message) => {
    const run = await cli(args, env);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(run.stderr).toMatch(/Usage/);
    expect(run.json).toEqual({ error: { code: 'USAGE', message: expect.stringMatching(message) } });
    expect(existsSync(dir)).toBe(false);
  });

  it('a bad setting is named, with exit 2', async () => {
    const run = await cli(['tenant', 'list'], { DATABASE_URL: 'mysql://root@localhost/x' });
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/DATABASE_URL: invalid value/);
    expect(run.json.error.code).toBe('CONFIG');
  });
});

describe('cli › when asked for help › prints it and exits 0', () => {
  it('import --help says what a row holds, every field --map takes, and an example; a usage error only the usage', async () => {
    const run = await cli(['import', '--help'], {});
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('Usage: npx consent-ledger import --tenant TENANT_ID --file');
    expect(run.stdout).toContain(
      'id, userReference, policyVersionId, policyType, purpose, policyVersion, consentGiven, status, collectedAt',
    );
    expect(run.stdout).toMatch(/--time-zone ZONE +the zone of times written without one/);
    expect(run.stdout).toMatch(/^Example: npx consent-ledger import --tenant TENANT_ID --file optins.csv/m);
    const wrong = await cli(['import', '--tenant', 'x'], {});
    expect(wrong.code).toBe(2);
    expect(wrong.stderr).toContain('Usage: npx consent-ledger import');
    expect(wrong.stderr).not.toContain('Example:');
  });

  it('--help lists every command', async () => {
    const run = await cli(['--help'], {});
    expect(run.code).toBe(0);
    for (const usage of [
      'tenant create --name NAME --plan PLAN',
      'tenant list',
      'tenant set-plan --id',
      'key create --tenant',
      'key revoke --tenant',
      'projections rebuild',
    ]) {
      expect(run.stdout).toContain(usage);
    }
  });

  it.each(['tenant create --help', 'key -h', 'projections help'])('%s', async (args) => {
    const run = await cli(args.split(' '), {});
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/Usage/);
  });
});

describe('cli › when asked for help or given bad arguments › it answers without loading the service', () => {
  // What the process loads, traced by a module hook: the store, its SQL builder, the schema and
  // HTTP libraries load only once a command runs (src/cli/README.md, "Commands").
  const loadedBy = async (args: string[]) => {
    const dir = mkdtempSync(join(tmpdir(), 'cl-cli-trace-'));
    const trace = join(dir, 'modules.txt');
    try {
      const hook = pathToFileURL(join(root, 'test', 'support', 'module-trace', 'register.mjs')).href;
      const run = await runCommand(process.execPath, ['--import', hook, bin, ...args], {
        MODULE_TRACE_FILE: trace,
        DATA_DIR: join(dir, 'data'),
      });
      const modules = [
        ...new Set(
          readFileSync(trace, 'utf8')
            .split('\n')
            .filter((u) => u.startsWith('file:')),
        ),
      ];
      return { run, modules, packages: [...new Set(modules.flatMap((u) => /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(u)?.[1] ?? []))] };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  };

  it.each([
    ['--help', ['--help'], 0],
    ["a command's help", ['import', '--help'], 0],
    ['a usage error', ['tenant', 'create', '--name', 'Acme'], 2],
  ])('%s loads no package, only the command definitions', async (_label, args, code) => {
    const { run, modules, packages } = await loadedBy(args);
    expect(run.code, run.stderr).toBe(code);
    expect(packages).toEqual([]);
    expect(modules.some((u) => u.endsWith('/dist/src/cli/commands.js'))).toBe(true);
    expect(modules.filter((u) => /\/dist\/src\/(store\/store|http\/app|ledger\/postgres\/[^/]*|application\/index)\.js$/.test(u))).toEqual(
      [],
    );
  });

  it('a command that runs loads the store (the trace sees it)', async () => {
    // tenant create, which may make the store in a new folder (the others refuse one without a store).
    const { run, packages } = await loadedBy(['tenant', 'create', '--name', 'Traced', '--plan', 'free']);
    expect(run.code, run.stderr).toBe(0);
    expect(packages).toEqual(expect.arrayContaining(['kysely', '@electric-sql/pglite']));
  });
});

describe('cli › when the CLI is not built › the bin says how to build it', () => {
  it('exits 1 and tells the user to run `npm run build`', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cl-cli-unbuilt-'));
    try {
      mkdirSync(join(dir, 'bin'));
      copyFileSync(bin, join(dir, 'bin', 'consent-ledger.js'));
      const run = await runCommand(process.execPath, [join(dir, 'bin', 'consent-ledger.js'), 'tenant', 'list'], {}, dir);
      expect(run.code).toBe(1);
      expect(run.stderr).toContain('npm run build');
      expect(run.stdout).toBe('');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('cli › when run through npx in the project folder › it is this package’s bin, found offline', () => {
  it('npx --offline consent-ledger --help answers this CLI’s help, and a first use does not rebuild dist/', async () => {
    // --offline: if npx did not resolve the project's own bin it would fail here rather than
    // fetch whatever the registry holds under that name. A cache of its own makes this npx's
    // first use here: it links the project into the cache and runs its prepare script, which
    // must find dist/ current rather than rebuild it under the files running from it.
    const cache = mkdtempSync(join(tmpdir(), 'cl-npx-cache-'));
    const built = () => [
      statSync(join(root, 'dist', 'build-inputs.json')).mtimeMs,
      statSync(join(root, 'dist', 'src', 'cli', 'cli.js')).mtimeMs,
    ];
    try {
      const before = built();
      const run = await runCommand('npx', ['--offline', 'consent-ledger', '--help'], { npm_config_cache: cache });
      expect(run.stderr).not.toMatch(/ENOTCACHED|could not determine executable/);
      expect(run.code, run.stderr).toBe(0);
      expect(run.stdout).toContain("consent-ledger: the operator's command line");
      expect(built()).toEqual(before);
    } finally {
      rmSync(cache, { recursive: true, force: true });
    }
  }, 120_000);
});

describe.each(engines)('cli › on $name', (engine) => {
  const { env, withService, createTenant } = onEngine(engine);
  /**
   * What a command does with the tables every store has alike (keys, plans, a refused argument) is
   * tested on one store, the server when there is one; what differs by store (creating a tenant,
   * erasing, rebuilding, the embedded store's lock) on each.
   */
  const itOnce = it.runIf(engine === engines[engines.length - 1]);

  describe('cli › tenants › create and list', () => {
    it('tenant create prints one JSON object with the credentials, and they work on the HTTP API', async () => {
      const run = await cli(['tenant', 'create', '--name', 'Acme Corp', '--plan', 'starter'], env);
      expect(run.code, run.stderr).toBe(0);
      expect(Object.keys(run.json).sort()).toEqual(['apiKey', 'apiSecret', 'expiresAt', 'keyName', 'name', 'plan', 'scope', 'tenantId']);
      expect(run.json).toMatchObject({ name: 'Acme Corp', plan: 'starter' });
      expect(run.json.tenantId).toMatch(UUID);
      expect(run.json.apiKey).toMatch(API_KEY);
      expect(run.json.apiSecret).toMatch(API_SECRET);
      // Human words go to stderr, never into the JSON.
      expect(run.stderr).toMatch(/only its hash is stored/);

      await withService(async (service) => {
        const api = client(service.app, run.json);
        const policyVersionId = await publishPolicy(api);
        const consent = await api.post('/api/v1/consent', { policyVersionId, userReference: 'cli-user', consentGiven: true });
        expect(consent.statusCode).toBe(201);
        expect((await api.get('/api/v1/consent/search')).json().pagination.total).toBe(1);
      });
    });

    itOnce('tenant list shows tenants, limits and keys, and no secret', async () => {
      const created = await createTenant('Listed Ltd', 'business');
      const run = await cli(['tenant', 'list'], env);
      expect(run.code, run.stderr).toBe(0);
      expect(Object.keys(run.json)).toEqual(['tenants']);
      const listed = (run.json.tenants as { tenantId: string }[]).find((x) => x.tenantId === created.tenantId);
      expect(listed).toEqual({
        tenantId: created.tenantId,
        name: 'Listed Ltd',
        plan: 'business',
        limits: { perMinute: 600, perDay: 200_000 },
        createdAt: expect.any(String),
        keys: [listedAdminKey(created.apiKey)],
      });
      expect(run.stdout).not.toContain(created.apiSecret);
      expect(run.stdout).not.toMatch(/secret|hash/i);
    });
  });

  describe('cli › keys › create and revoke', () => {
    itOnce('key create --scope read issues an auditor key: it reads, and writing answers 403 FORBIDDEN', async () => {
      const created = await createTenant('Audited', 'pro');
      const issued = await cli(['key', 'create', '--tenant', created.tenantId, '--scope', 'read'], env);
      expect(issued.code, issued.stderr).toBe(0);
      expect(issued.json).toMatchObject({ tenantId: created.tenantId, scope: 'read' });
      await withService(async (service) => {
        const reader = client(service.app, issued.json as { apiKey: string; apiSecret: string });
        expect((await reader.get('/api/v1/consent/search')).statusCode).toBe(200);
        const refused = await reader.post('/api/v1/policies', { policyType: 'custom', version: '1.0.0', title: 't', content: 'c' });
        expect(refused.statusCode).toBe(403);
        expect(refused.json().error).toMatchObject({ code: 'FORBIDDEN', details: { requiredScopes: ['admin'], keyScope: 'read' } });
      });
      const bad = await cli(['key', 'create', '--tenant', created.tenantId, '--scope', 'owner'], env);
      expect(bad.code).toBe(2);
      expect(bad.json.error.message).toMatch(/--scope must be one of admin, write, read/);
    });

    itOnce('key create issues a second working key; key revoke refuses the old one with 401', async () => {
      const created = await createTenant('Rotating', 'pro');
      const issued = await cli(['key', 'create', '--tenant', created.tenantId], env);
      expect(issued.code, issued.stderr).toBe(0);
      expect(Object.keys(issued.json).sort()).toEqual(['apiKey', 'apiSecret', 'expiresAt', 'keyName', 'name', 'plan', 'scope', 'tenantId']);
      expect(issued.json).toMatchObject({ tenantId: created.tenantId, name: 'Rotating', plan: 'pro' });
      expect(issued.json.apiKey).toMatch(API_KEY);
      expect(issued.json.apiSecret).toMatch(API_SECRET);

      await withService(async (service) => {
        expect((await client(service.app, created).get('/api/v1/policies')).statusCode).toBe(200);
        expect((await client(service.app, issued.json).get('/api/v1/policies')).statusCode).toBe(200);
      });

      const revoked = await cli(['key', 'revoke', '--tenant', created.tenantId, '--key', created.apiKey], env);
      expect(revoked.code, revoked.stderr).toBe(0);
      expect(revoked.json).toEqual({ revoked: true });

      await withService(async (service) => {
        const refused = await client(service.app, created).get('/api/v1/policies');
        expect(refused.statusCode).toBe(401);
        expect(refused.json().error.code).toBe('UNAUTHORIZED');
        expect((await client(service.app, issued.json).get('/api/v1/policies')).statusCode).toBe(200);
      });

      const again = await cli(['key', 'revoke', '--tenant', created.tenantId, '--key', created.apiKey], env);
      expect(again.code).toBe(1);
      expect(again.json.error.code).toBe('NOT_FOUND');
      expect(again.stderr).toMatch(/not found or already revoked/);

      // A publishable key it issued, it revokes too (a leaked one, with the service stopped).
      const origin = 'https://shop.example.com';
      const publishable = await cli(['key', 'create', '--tenant', created.tenantId, '--scope', 'publishable', '--origin', origin], env);
      expect(publishable.code, publishable.stderr).toBe(0);
      const pk = publishable.json.apiKey as string;
      const gone = await cli(['key', 'revoke', '--tenant', created.tenantId, '--key', pk], env);
      expect(gone.code, gone.stderr).toBe(0);
      expect(gone.json).toEqual({ revoked: true });
      await withService(async (service) => {
        const refused = await browserClient(service.app, pk, origin).post('/api/v1/consent', {
          purpose: 'privacy_policy',
          userReference: 'visitor',
          consentGiven: true,
        });
        expect(refused.statusCode).toBe(401);
      });
    });

    itOnce('issues a publishable key that records only with a user token, its public key read from a PEM file', async () => {
      const created = await createTenant('Tokens', 'pro');
      const dir = mkdtempSync(join(tmpdir(), 'user-token-'));
      try {
        const pem = join(dir, 'backend.pub.pem');
        writeFileSync(pem, generateKeyPairSync('ed25519').publicKey.export({ format: 'pem', type: 'spki' }));
        const origin = 'https://shop.example.com';
        const args = ['key', 'create', '--tenant', created.tenantId, '--scope', 'publishable', '--origin', origin];
        const issued = await cli([...args, '--user-token-key', pem], env);
        expect(issued.code, issued.stderr).toBe(0);
        expect(issued.json.userTokenKey).toMatch(/^[A-Za-z0-9_-]{43}$/);
        // Neither a key nor a file of one, nor a key for another scope: usage errors, nothing issued.
        const privatePem = join(dir, 'backend.key');
        writeFileSync(privatePem, generateKeyPairSync('ed25519').privateKey.export({ format: 'pem', type: 'pkcs8' }));
        for (const [bad, said] of [
          [[...args, '--user-token-key', join(dir, 'missing.pem')], /there is no file .*missing\.pem/],
          [[...args, '--user-token-key', dir], /is a folder/],
          [[...args, '--user-token-key', privatePem], /holds a private key/],
          // The all-zero key: of small order, anyone could sign for it.
          [[...args, '--user-token-key', '00'.repeat(32)], /usable Ed25519 public key/],
          [['key', 'create', '--tenant', created.tenantId, '--user-token-key', pem], /for --scope publishable only/],
        ] as const) {
          const run = await cli([...bad], env);
          expect(run.code, run.stderr).toBe(2);
          expect(run.stderr).toMatch(/--user-token-key/);
          expect(run.stderr).toMatch(said);
        }
        await withService(async (service) => {
          const refused = await browserClient(service.app, issued.json.apiKey as string, origin).post('/api/v1/consent', {
            purpose: 'privacy_policy',
            userReference: 'visitor',
            consentGiven: true,
          });
          expect(refused.statusCode).toBe(401);
          expect(refused.json().error.message).toMatch(/X-User-Token/);
        });
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });

    itOnce('fails with exit 1 for a tenant that does not exist', async () => {
      const run = await cli(['key', 'create', '--tenant', '00000000-0000-4000-8000-000000000000'], env);
      expect(run.code).toBe(1);
      expect(run.json).toEqual({ error: { code: 'NOT_FOUND', message: 'tenant not found' } });
    });
  });

  describe('cli › plans › set-plan', () => {
    itOnce('set-plan free makes CSV export 403 PLAN_RESTRICTED; limits can be set and cleared', async () => {
      const created = await createTenant('Downgraded', 'starter');
      await withService(async (service) => {
        expect((await client(service.app, created).get('/api/v1/consent/export')).statusCode).toBe(200);
      });

      const free = await cli(['tenant', 'set-plan', '--id', created.tenantId, '--plan', 'free'], env);
      expect(free.code, free.stderr).toBe(0);
      expect(free.json).toEqual({
        tenantId: created.tenantId,
        name: 'Downgraded',
        plan: 'free',
        limits: { perMinute: 10, perDay: 100 },
        createdAt: expect.any(String),
      });
      await withService(async (service) => {
        const refused = await client(service.app, created).get('/api/v1/consent/export');
        expect(refused.statusCode).toBe(403);
        expect(refused.json().error.code).toBe('PLAN_RESTRICTED');
      });

      const own = await cli(
        ['tenant', 'set-plan', '--id', created.tenantId, '--plan', 'enterprise', '--per-minute', '5000', '--per-day', '9000000'],
        env,
      );
      expect(own.code, own.stderr).toBe(0);
      expect(own.json).toMatchObject({ plan: 'enterprise', limits: { perMinute: 5000, perDay: 9_000_000 } });
      const cleared = await cli(['tenant', 'set-plan', '--id', created.tenantId, '--per-day', 'default'], env);
      expect(cleared.code, cleared.stderr).toBe(0);
      expect(cleared.json).toMatchObject({ plan: 'enterprise', limits: { perMinute: 5000, perDay: 200_000 } });

      await withService(async (service) => {
        expect((await client(service.app, created).get('/api/v1/consent/export')).statusCode).toBe(200);
        expect(await service.tenants.get(created.tenantId)).toMatchObject({
          plan: 'enterprise',
          limits: { perMinute: 5000, perDay: 200_000 },
        });
      });
    });

    itOnce('fails with exit 1 for a tenant that does not exist', async () => {
      const run = await cli(['tenant', 'set-plan', '--id', '00000000-0000-4000-8000-000000000000', '--plan', 'pro'], env);
      expect(run.code).toBe(1);
      expect(run.json.error.code).toBe('NOT_FOUND');
    });
  });

  describe('cli › subjects erase', () => {
    it('erases a subject whose reference no URL carries easily; the API then shows the records erased', async () => {
      const created = await createTenant('Erasing', 'pro');
      const reference = `ops/erase?me=1&%20 ünï ${'r'.repeat(200)}`;
      const consentId = await withService(async (service) => {
        const api = client(service.app, created);
        const policyVersionId = await publishPolicy(api);
        const res = await api.post('/api/v1/consent', { policyVersionId, userReference: reference, consentGiven: true });
        expect(res.statusCode, res.body).toBe(201);
        return res.json().data.id as string;
      });

      const run = await cli(['subjects', 'erase', '--tenant', created.tenantId, '--user-reference', reference], env);
      expect(run.code, run.stderr).toBe(0);
      expect(run.json).toEqual({
        erased: true,
        erasedAt: expect.any(String),
        consentIds: [consentId],
        receiptsDeleted: 0,
        replayed: false,
      });
      expect(run.stdout).not.toContain(reference);

      await withService(async (service) => {
        const api = client(service.app, created);
        const record = (await api.get(`/api/v1/consent/${consentId}`)).json().data;
        expect(record).toMatchObject({ erased: true, userReference: null, ipAddress: null });
        expect((await api.get(`/api/v1/consent/${consentId}/verify`)).json().data.erased).toBe(true);
      });

      const again = await cli(['subjects', 'erase', '--tenant', created.tenantId, '--user-reference', reference], env);
      expect(again.code, again.stderr).toBe(0);
      expect(again.json).toMatchObject({ erased: true, erasedAt: run.json.erasedAt, consentIds: [consentId], replayed: true });
    });

    itOnce('refuses a missing or too long reference (exit 2) and an unknown tenant (exit 1)', async () => {
      const tooLong = await cli(
        ['subjects', 'erase', '--tenant', '00000000-0000-4000-8000-000000000000', '--user-reference', 'x'.repeat(256)],
        env,
      );
      expect(tooLong.code).toBe(2);
      expect(tooLong.json.error.message).toMatch(/--user-reference must be 1 to 255 characters/);
      const missing = await cli(['subjects', 'erase', '--tenant', '00000000-0000-4000-8000-000000000000'], env);
      expect(missing.code).toBe(2);
      expect(missing.json.error.message).toMatch(/--user-reference is required/);
      const unknown = await cli(
        ['subjects', 'erase', '--tenant', '00000000-0000-4000-8000-000000000000', '--user-reference', 'someone'],
        env,
      );
      expect(unknown.code).toBe(1);
      expect(unknown.json.error.code).toBe('NOT_FOUND');
    });
  });

  describe('cli › projections rebuild', () => {
    it('replays every ledger event into fresh read models that answer as before', async () => {
      const created = await createTenant('Rebuilt', 'pro');
      const reads = [
        '/api/v1/policies',
        '/api/v1/consent/search?limit=100',
        '/api/v1/consent/stats',
        '/api/v1/consent/user/rebuild-user/status',
        '/api/v1/consent/export',
      ];
      const snapshot = async (service: Service) => {
        const api = client(service.app, created);
        return Promise.all(
          reads.map(async (url) => {
            const res = await api.get(url);
            expect(res.statusCode, url).toBe(200);
            return url.includes('export') ? res.body : res.json().data;
          }),
        );
      };
      const { before, events } = await withService(async (service) => {
        const api = client(service.app, created);
        const policyVersionId = await publishPolicy(api, { policyType: 'cookie_policy' });
        for (let i = 0; i < 5; i++) {
          const res = await api.post('/api/v1/consent', { policyVersionId, userReference: 'rebuild-user', consentGiven: i % 2 === 0 });
          expect(res.statusCode).toBe(201);
        }
        const first = (await api.get('/api/v1/consent/search?consentGiven=true')).json().data[0].id;
        expect((await api.post(`/api/v1/consent/${first}/withdraw`, { reason: 'rebuild test' })).statusCode).toBe(200);
        const before = await snapshot(service);
        // Spoil the read models: only a replay from the ledger can put them right.
        await sql`UPDATE read.consents SET subject = 'spoiled', status = 'spoiled' WHERE tenant_id = ${created.tenantId}::uuid`.execute(
          service.store.db,
        );
        await sql`DELETE FROM read.policy_versions WHERE tenant_id = ${created.tenantId}::uuid`.execute(service.store.db);
        expect(await snapshot(service)).not.toEqual(before);
        const counted = await sql<{ n: number }>`SELECT count(*)::int AS n FROM ledger.events`.execute(service.store.db);
        return { before, events: counted.rows[0]!.n };
      });
      expect(events).toBeGreaterThanOrEqual(7);

      const run = await cli(['projections', 'rebuild'], env);
      expect(run.code, run.stderr).toBe(0);
      expect(Object.keys(run.json).sort()).toEqual(['events', 'seconds']);
      expect(run.json.events).toBe(events);
      expect(run.json.seconds).toBeGreaterThan(0);
      expect(run.stderr).toContain(`replaying ${events} ledger events`);

      await withService(async (service) => {
        expect(await snapshot(service)).toEqual(before);
        const failures = await sql<{ n: number }>`SELECT count(*)::int AS n FROM read.projection_failures`.execute(service.store.db);
        expect(failures.rows[0]!.n).toBe(0);
      });
    });
  });

  if (engine.name.includes('embedded')) {
    describe('cli › when the service holds the embedded store', () => {
      it('fails with exit 1 and the data-dir lock message, and works again once the service stops', async () => {
        await withService(async () => {
          const run = await cli(['tenant', 'list'], env);
          expect(run.code).toBe(1);
          expect(run.stderr).toContain(
            `is in use by process ${process.pid}; stop it first (while it runs, its admin API takes backups and manages tenants and keys)`,
          );
          expect(run.json.error.code).toBe('DATA_DIR_LOCKED');
          const rebuild = await cli(['projections', 'rebuild'], env);
          expect(rebuild.code).toBe(1);
          expect(rebuild.json.error.code).toBe('DATA_DIR_LOCKED');
        });
        const run = await cli(['tenant', 'list'], env);
        expect(run.code, run.stderr).toBe(0);
      });
    });
  } else {
    describe('cli › when the service runs on the same PostgreSQL server', () => {
      it('the running service follows what the CLI changes', async () => {
        const created = await createTenant('Live', 'starter');
        await withService(async (service) => {
          const api = client(service.app, created);
          expect((await api.get('/api/v1/consent/export')).statusCode).toBe(200);
          expect((await cli(['tenant', 'set-plan', '--id', created.tenantId, '--plan', 'free'], env)).code).toBe(0);
          // Another process's verified-key cache holds a tenant for at most 2 s.
          await waitUntil(async () => (await api.get('/api/v1/consent/export')).statusCode === 403, 'the free plan to apply');
          expect((await cli(['key', 'revoke', '--tenant', created.tenantId, '--key', created.apiKey], env)).code).toBe(0);
          await waitUntil(async () => (await api.get('/api/v1/policies')).statusCode === 401, 'the revoked key to be refused');
        });
      });
    });

    describe('cli › db grant', () => {
      it('creates a role that reads and appends the ledger and may not change it', async () => {
        const role = `cl_cli_${Date.now().toString(36)}`;
        const run = await cli(['db', 'grant', '--role', role, '--create'], env);
        expect(run.code, run.stderr).toBe(0);
        expect(run.json).toEqual({ role, created: true });
        const asRole = new pg.Client({ connectionString: connectingAs(env.DATABASE_URL!, role) });
        await asRole.connect();
        try {
          await asRole.query('SELECT count(*) FROM ledger.events');
          await expect(asRole.query('DELETE FROM ledger.events')).rejects.toMatchObject({ code: '42501' });
        } finally {
          await asRole.end();
          const admin = new pg.Client({ connectionString: env.DATABASE_URL });
          await admin.connect();
          await admin.query(`DROP OWNED BY ${role}`);
          await admin.query(`DROP ROLE ${role}`);
          await admin.end();
        }
        const again = await cli(['db', 'grant', '--role', 'Not-A-Name'], env);
        expect(again.code).toBe(2);
        expect(again.json.error.code).toBe('USAGE');
      });
    });
  }

  if (engine.name.includes('embedded')) {
    it('keys rotate-signing replaces DATA_DIR/signing.key and the service then publishes both keys', async () => {
      const before = await withService(async (service) => {
        const keys = (await service.app.inject({ url: '/.well-known/consent-ledger/keys' })).json().keys;
        return keys[0].vkey as string;
      });
      const run = await cli(['keys', 'rotate-signing'], env);
      expect(run.code, run.stderr).toBe(0);
      expect(run.json).toMatchObject({ retired: before, path: join(env.DATA_DIR!, 'signing.key') });
      expect(run.json.current).not.toBe(before);
      const keys = await withService(
        async (service) =>
          (await service.app.inject({ url: '/.well-known/consent-ledger/keys' })).json().keys as { vkey: string; status: string }[],
      );
      expect(keys.map((k) => [k.vkey, k.status])).toEqual([
        [run.json.current, 'current'],
        [before, 'retired'],
      ]);
      const unreadable = await cli(['keys', 'rotate-signing', '--new-key-file', join(env.DATA_DIR!, 'missing.key')], env);
      expect(unreadable.code).toBe(2);
      expect(unreadable.json.error.message).toMatch(/--new-key-file: cannot read/);
    });

    it('db grant refuses the embedded store, which has no roles', async () => {
      const run = await cli(['db', 'grant', '--role', 'consent_service'], env);
      expect(run.code).toBe(2);
      expect(run.json.error.code).toBe('USAGE');
      expect(run.stderr).toMatch(/needs a PostgreSQL server/);
    });
  }
});

describe('cli › when the store cannot be reached', () => {
  it('exits 1 with the reason', async () => {
    const run = await cli(['tenant', 'list'], { DATABASE_URL: 'postgres://postgres@127.0.0.1:1/nowhere' });
    expect(run.code).toBe(1);
    expect(run.json.error.code).toBe('FAILED');
    expect(run.stderr).toMatch(/tenant list failed: .*(ECONNREFUSED|connect)/);
  });
});

describe('cli › when DATA_DIR holds no store', () => {
  it('refuses, naming the folder, and creates nothing; tenant create alone may make a first store', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cl-cli-nostore-'));
    try {
      const typo = join(dir, 'dtaa');
      for (const args of [
        ['tenant', 'list'],
        ['backup', '--out', join(dir, 'b.tar.gz')],
        ['audit', 'export', '--tenant', randomUUID(), '--out', join(dir, 'log.jsonl')],
      ]) {
        const run = await cli(args, { DATA_DIR: typo });
        expect(run.code, args.join(' ')).toBe(1);
        expect(run.json.error.code).toBe('NO_STORE');
        expect(run.stderr).toContain(`${typo} holds no store`);
      }
      expect(readdirSync(dir)).toEqual([]);
      const created = await cli(['tenant', 'create', '--name', 'First', '--plan', 'free'], { DATA_DIR: typo });
      expect(created.code, created.stderr).toBe(0);
      expect((await cli(['tenant', 'list'], { DATA_DIR: typo })).json.tenants).toHaveLength(1);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it.skipIf(!serverUrl)(
    'refuses a DATABASE_URL naming a database with no store the same way, creating nothing in it',
    async () => {
      const fresh = await freshDatabase();
      try {
        const env = { DATABASE_URL: fresh.url, DATA_DIR: mkdtempSync(join(tmpdir(), 'cl-cli-nostore-pg-')) };
        for (const args of [
          ['tenant', 'list'],
          ['projections', 'verify'],
          ['audit', 'export', '--tenant', randomUUID(), '--out', join(env.DATA_DIR, 'l.jsonl')],
        ]) {
          const run = await cli(args, env);
          expect(run.code, args.join(' ')).toBe(1);
          expect(run.json.error.code).toBe('NO_STORE');
          expect(run.stderr).toContain(`(${new URL(fresh.url).pathname.slice(1)}) holds no store`);
        }
        expect(await tablesIn(fresh.url)).toBe(0);
        const created = await cli(['tenant', 'create', '--name', 'First', '--plan', 'free'], env);
        expect(created.code, created.stderr).toBe(0);
        expect((await cli(['tenant', 'list'], env)).json.tenants).toHaveLength(1);
        rmSync(env.DATA_DIR, { recursive: true, force: true });
      } finally {
        await fresh.drop();
      }
    },
    60_000,
  );

  it.each(['MASTER_KEY_FILE', 'TRANSPARENCY_SIGNING_KEY_FILE'])(
    'refuses a %s that does not read, naming it, before a store is made',
    async (setting) => {
      const dir = mkdtempSync(join(tmpdir(), 'cl-cli-keyfile-'));
      try {
        const run = await cli(['tenant', 'create', '--name', 'First', '--plan', 'free'], {
          DATA_DIR: dir,
          [setting]: join(dir, 'missing.key'),
        });
        expect(run.code, run.stderr).toBe(2);
        expect(run.json.error).toMatchObject({ code: 'CONFIG', message: expect.stringContaining(`${setting}: cannot read`) });
        expect(readdirSync(dir)).toEqual([]);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
    60_000,
  );

  it('tenant create on a new store makes the signing key as the first start would, and signs its events with it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cl-cli-first-'));
    try {
      const created = await cli(['tenant', 'create', '--name', 'First', '--plan', 'pro'], { DATA_DIR: dir });
      expect(created.code, created.stderr).toBe(0);
      // Said as the service says it: a key was made, and must be backed up.
      expect(created.stderr).toContain(`generated a new checkpoint signing key in ${join(dir, 'signing.key')}`);
      expect(existsSync(join(dir, 'signing.key'))).toBe(true);
      expect((await cli(['key', 'create', '--tenant', created.json.tenantId, '--scope', 'read'], { DATA_DIR: dir })).code).toBe(0);
      // A tenant id mistyped is not a log unsealed.
      const unknown = randomUUID();
      const exported = await cli(['audit', 'export', '--tenant', unknown, '--out', join(dir, 'log.jsonl')], { DATA_DIR: dir });
      expect(exported.code).toBe(1);
      expect(exported.json.error.code).toBe('NOT_FOUND');
      expect(exported.stderr).toMatch(/tenant not found/);
      expect(exported.stderr).not.toMatch(/no signed checkpoint/);
      // Every event carries an authenticator, none precedes where they begin: an auditor tells
      // them from rows written into the ledger table by hand.
      const { openStore } = await import('../../src/store/store.js');
      const { MIGRATIONS } = await import('../../src/migrations.js');
      const store = await openStore({ dataDir: dir, migrations: MIGRATIONS });
      try {
        const events = await sql<{ type: string; signed: boolean }>`
          SELECT event_type AS type, authenticator IS NOT NULL AS signed FROM ledger.events ORDER BY global_position`.execute(store.db);
        expect(events.rows.map((e) => e.type)).toEqual(['TenantCreated', 'ApiKeyIssued', 'ApiKeyIssued']);
        expect(events.rows.every((e) => e.signed)).toBe(true);
        const from = await sql<{ commit: string }>`SELECT commit_position::text AS commit FROM ledger.authenticated_from`.execute(store.db);
        expect(from.rows).toEqual([{ commit: '0' }]);
      } finally {
        await store.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
