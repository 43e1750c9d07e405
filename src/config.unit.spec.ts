import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { cosignerVkey, signerFromSeed } from './transparency/note.js';
import { describe, expect, it } from 'vitest';
import { ConfigError, EnvironmentSchema, loadSettings } from './config.js';

/** The ConfigError that loading these settings throws (fails the test when none is thrown). */
function refusal(env: Record<string, string>): ConfigError {
  try {
    loadSettings(env);
  } catch (error) {
    expect(error).toBeInstanceOf(ConfigError);
    return error as ConfigError;
  }
  throw new Error(`expected ${JSON.stringify(env)} to be refused, but it was accepted`);
}

const W1 = cosignerVkey(signerFromSeed('w1.example/witness', Buffer.alloc(32, 1)));
const W2 = cosignerVkey(signerFromSeed('w2.example/witness', Buffer.alloc(32, 2)));
const LOG = signerFromSeed('consent.example.com', Buffer.alloc(32, 3)).vkey;

describe('config › when no setting is given', () => {
  it('runs embedded on port 3000 with the documented defaults', () => {
    expect(loadSettings({})).toEqual({
      port: 3000,
      host: '127.0.0.1',
      dataDir: './data',
      databaseUrl: undefined,
      eventStoreUrl: undefined,
      eventStoreStreamPrefix: '',
      redisUrl: undefined,
      adminToken: undefined,
      publicBaseUrl: 'http://localhost:3000',
      trustProxy: false,
      webhookAllowPrivateNetworks: false,
      webhookAllowHttp: false,
      webhookRetryScale: 1,
      logLevel: 'info',
      masterKey: undefined,
      masterKeyFile: undefined,
      witnesses: [],
      witnessQuorum: 0,
      projectionsVerifyMinutes: 0,
      shutdownTimeoutSeconds: 25,
      requestTimeoutSeconds: 120,
      webhookHistoryDays: 90,
      embeddedVacuumMinutes: 10,
    });
  });

  it('refuses a HOST that is no address nor host name, and takes those that are', () => {
    for (const HOST of ['999.1.1.1', '1.2.3', 'a..b', '-x.example', 'http://host', 'host:3000', '::1::', '[::1]']) {
      expect(refusal({ HOST }).message, HOST).toMatch(/^HOST: invalid value/);
    }
    for (const HOST of ['0.0.0.0', '127.0.0.1', '::', '::1', 'localhost', 'db-1.internal', 'consent_ledger', 'svc.cluster.local.']) {
      expect(loadSettings({ HOST }).host, HOST).toBe(HOST);
    }
  });

  it('treats an empty value as not set', () => {
    expect(loadSettings({ PORT: '', LOG_LEVEL: '', WEBHOOK_RETRY_SCALE: '' })).toMatchObject({
      port: 3000,
      logLevel: 'info',
      webhookRetryScale: 1,
    });
  });

  it('ignores variables that are not settings', () => {
    expect(loadSettings({ PATH: '/usr/bin', NODE_ENV: 'production' })).toEqual(loadSettings({}));
  });
});

describe('config › when settings are given', () => {
  it('reads each of them', () => {
    const settings = loadSettings({
      PORT: '8080',
      HOST: '0.0.0.0',
      DATA_DIR: '/var/lib/consent-ledger',
      DATABASE_URL: 'postgresql://u:p@db:5432/consent',
      EVENTSTORE_URL: 'kurrentdb+discover://es1:2113,es2:2113?tls=true',
      EVENTSTORE_STREAM_PREFIX: 'staging.',
      REDIS_URL: 'rediss://cache:6380',
      ADMIN_TOKEN: 'a-token-of-sixteen+',
      PUBLIC_BASE_URL: 'https://consent.example.com/',
      TRUST_PROXY: 'true',
      WEBHOOK_ALLOW_PRIVATE_NETWORKS: '1',
      WEBHOOK_ALLOW_HTTP: 'true',
      WEBHOOK_RETRY_SCALE: '0.001',
      LOG_LEVEL: 'warn',
      MASTER_KEY_FILE: '/run/secrets/master.key',
      WITNESSES: `${W1}@https://w1.example/, ${W2}@http://10.0.0.2:7380`,
      WITNESS_QUORUM: '1',
      PROJECTIONS_VERIFY_MINUTES: '60',
      WEBHOOK_HISTORY_DAYS: '30',
      EMBEDDED_VACUUM_MINUTES: '5',
      SHUTDOWN_TIMEOUT: '60',
      REQUEST_TIMEOUT: '30',
    });
    expect(settings).toMatchObject({
      witnesses: [
        { vkey: W1, url: 'https://w1.example' },
        { vkey: W2, url: 'http://10.0.0.2:7380' },
      ],
      witnessQuorum: 1,
    });
    expect({ ...settings, witnesses: [] }).toEqual({
      port: 8080,
      host: '0.0.0.0',
      dataDir: '/var/lib/consent-ledger',
      databaseUrl: 'postgresql://u:p@db:5432/consent',
      eventStoreUrl: 'kurrentdb+discover://es1:2113,es2:2113?tls=true',
      eventStoreStreamPrefix: 'staging.',
      redisUrl: 'rediss://cache:6380',
      adminToken: 'a-token-of-sixteen+',
      publicBaseUrl: 'https://consent.example.com',
      trustProxy: true,
      webhookAllowPrivateNetworks: true,
      webhookAllowHttp: true,
      webhookRetryScale: 0.001,
      logLevel: 'warn',
      masterKey: undefined,
      masterKeyFile: '/run/secrets/master.key',
      witnesses: [],
      witnessQuorum: 1,
      projectionsVerifyMinutes: 60,
      shutdownTimeoutSeconds: 60,
      requestTimeoutSeconds: 30,
      webhookHistoryDays: 30,
      embeddedVacuumMinutes: 5,
    });
  });

  it('refuses a witness that is not VKEY@URL, a log key given as a witness, and a quorum above the witnesses', () => {
    expect(() => loadSettings({ WITNESSES: W1 })).toThrow(/WITNESSES: .* is not VKEY@URL/);
    expect(() => loadSettings({ WITNESSES: `${LOG}@http://w` })).toThrow(/is a log key/);
    expect(() => loadSettings({ WITNESSES: `${W1}@http://w`, WITNESS_QUORUM: '2' })).toThrow(
      /WITNESS_QUORUM: 2 is more than the 1 WITNESSES/,
    );
    expect(() => loadSettings({ WITNESS_QUORUM: '0' })).toThrow(/WITNESS_QUORUM/);
    expect(loadSettings({ WITNESSES: `${W1}@http://w,${W2}@http://v` }).witnessQuorum).toBe(2);
  });

  it('takes MASTER_KEY as 64 hex characters or base64 of 32 bytes, and refuses anything else or both key settings', () => {
    expect(loadSettings({ MASTER_KEY: 'ab'.repeat(32) }).masterKey).toBe('ab'.repeat(32));
    expect(loadSettings({ MASTER_KEY: Buffer.alloc(32, 7).toString('base64') }).masterKey).toBe(Buffer.alloc(32, 7).toString('base64'));
    expect(() => loadSettings({ MASTER_KEY: 'too-short' })).toThrow(/MASTER_KEY: invalid value/);
    expect(() => loadSettings({ MASTER_KEY: 'ab'.repeat(32), MASTER_KEY_FILE: '/k' })).toThrow(/MASTER_KEY, MASTER_KEY_FILE/);
  });

  it('derives the public base URL from the port when it is not set', () => {
    expect(loadSettings({ PORT: '4000' }).publicBaseUrl).toBe('http://localhost:4000');
  });

  it.each([
    ['false', false],
    ['0', false],
    ['true', true],
    ['2', 2],
    ['127.0.0.1', ['127.0.0.1']],
    ['10.0.0.0/8, 192.168.1.1 ,::1,fd00::/8', ['10.0.0.0/8', '192.168.1.1', '::1', 'fd00::/8']],
    ['loopback,uniquelocal', ['loopback', 'uniquelocal']],
  ])('reads TRUST_PROXY=%j as %j', (raw, expected) => {
    expect(loadSettings({ TRUST_PROXY: raw }).trustProxy).toEqual(expected);
  });

  it.each([
    ['false', false],
    ['0', false],
    ['true', true],
    ['1', true],
  ])('reads the flag value %j as %j', (raw, expected) => {
    expect(loadSettings({ WEBHOOK_ALLOW_HTTP: raw }).webhookAllowHttp).toBe(expected);
    expect(loadSettings({ WEBHOOK_ALLOW_PRIVATE_NETWORKS: raw }).webhookAllowPrivateNetworks).toBe(expected);
  });

  it('accepts the port range ends', () => {
    expect(loadSettings({ PORT: '0' }).port).toBe(0);
    expect(loadSettings({ PORT: '65535' }).port).toBe(65535);
  });
});

describe('config › when a setting has a wrong value', () => {
  it.each([
    ['PORT', 'abc'],
    ['PORT', '70000'],
    ['PORT', '65536'],
    ['PORT', '-1'],
    ['PORT', '3000.5'],
    ['PORT', ' 3000'],
    ['DATABASE_URL', 'mysql://x'],
    ['DATABASE_URL', 'localhost:5432'],
    // A URL that does not parse (a port not a number, a bracket never closed): the driver would throw a stack.
    ['DATABASE_URL', 'postgres://postgres:x@127.0.0.1:54x2/db'],
    ['DATABASE_URL', 'postgres://u:p@[bad'],
    ['WEBHOOK_RETRY_SCALE', '0'],
    ['WEBHOOK_RETRY_SCALE', '-1'],
    ['WEBHOOK_RETRY_SCALE', 'fast'],
    ['WEBHOOK_HISTORY_DAYS', '-1'],
    ['WEBHOOK_HISTORY_DAYS', 'ninety'],
    ['WEBHOOK_HISTORY_DAYS', '1.5'],
    ['EMBEDDED_VACUUM_MINUTES', '-5'],
    // Past what a timer can wait (about 24.8 days): it would fire at once, over and over.
    ['EMBEDDED_VACUUM_MINUTES', '35792'],
    ['PROJECTIONS_VERIFY_MINUTES', '43200'],
    ['SHUTDOWN_TIMEOUT', '1'],
    ['SHUTDOWN_TIMEOUT', '10000'],
    ['SHUTDOWN_TIMEOUT', 'soon'],
    ['REQUEST_TIMEOUT', '0'],
    ['REQUEST_TIMEOUT', '10000'],
    ['WEBHOOK_RETRY_SCALE', '1e999'],
    ['LOG_LEVEL', 'loud'],
    ['LOG_LEVEL', 'INFO'],
    ['ADMIN_TOKEN', 'short'],
    ['ADMIN_TOKEN', 'x'.repeat(15)],
    ['ADMIN_TOKEN', 'tökén-0123456789abcdef'],
    ['ADMIN_TOKEN', 'a token with spaces in it'],
    ['TRUST_PROXY', 'yes'],
    ['TRUST_PROXY', 'cafe'],
    ['TRUST_PROXY', '10.0.0.0/33'],
    ['TRUST_PROXY', '::1/129'],
    ['TRUST_PROXY', '300.1.1.1'],
    ['TRUST_PROXY', '10.0.0.1,nonsense'],
    ['TRUST_PROXY', ' , '],
    ['EVENTSTORE_URL', 'http://localhost:2113'],
    ['EVENTSTORE_URL', 'localhost:2113'],
    ['EVENTSTORE_STREAM_PREFIX', 'has space'],
    ['EVENTSTORE_STREAM_PREFIX', '$system'],
    ['REDIS_URL', 'localhost:6379'],
    ['PUBLIC_BASE_URL', 'consent.example.com'],
    ['WEBHOOK_ALLOW_HTTP', 'yes'],
    ['WEBHOOK_ALLOW_PRIVATE_NETWORKS', 'on'],
  ])('refuses %s=%j with a ConfigError naming it', (name, value) => {
    const error = refusal({ [name]: value });
    expect(error.message).toMatch(new RegExp(`^${name}: `));
  });

  it('refuses a DATABASE_URL that does not parse without printing its password', () => {
    const error = refusal({ DATABASE_URL: 'postgres://app:s3cr3t-pw@db.internal:54x2/consent' });
    expect(error.message).toMatch(/^DATABASE_URL: invalid value \(a postgres:\/\/ URL that parses/);
    expect(error.message).not.toContain('s3cr3t-pw');
  });

  it('takes a DATABASE_URL naming a socket directory, as the driver does', () => {
    expect(loadSettings({ DATABASE_URL: 'postgres:///consent?host=/var/run/postgresql' }).databaseUrl).toBe(
      'postgres:///consent?host=/var/run/postgresql',
    );
    expect(loadSettings({ DATABASE_URL: 'postgresql://app@/consent?host=/var/run/postgresql' }).databaseUrl).toBeDefined();
  });

  it('names every wrong setting at once, and no right one', () => {
    const error = refusal({ PORT: 'abc', LOG_LEVEL: 'loud', HOST: 'example.org', DATABASE_URL: 'mysql://x' });
    expect(error.message).toContain('PORT');
    expect(error.message).toContain('LOG_LEVEL');
    expect(error.message).toContain('DATABASE_URL');
    expect(error.message).not.toContain('HOST');
  });

  it('says in words what a setting takes, never the validator’s own phrase', () => {
    expect(refusal({ LOG_LEVEL: 'loud' }).message).toBe('LOG_LEVEL: invalid value (one of fatal, error, warn, info, debug, trace, silent)');
  });

  it('never echoes the secret it refuses', () => {
    const error = refusal({ ADMIN_TOKEN: 'hunter2' });
    expect(error.message).not.toContain('hunter2');
  });
});

describe('config › when the service starts with a wrong value', () => {
  it('stops the start: exits non-zero, names PORT on stderr, creates no data and serves nothing', async () => {
    const root = fileURLToPath(new URL('..', import.meta.url));
    const scratch = mkdtempSync(join(tmpdir(), 'cl-config-'));
    const dataDir = join(scratch, 'data');
    const env: NodeJS.ProcessEnv = { ...process.env };
    for (const key of Object.keys(EnvironmentSchema.properties)) delete env[key];
    Object.assign(env, { PORT: 'abc', DATA_DIR: dataDir });
    try {
      // Its own process group, so that a service that wrongly started can be ended with its npx parent.
      const child = spawn('npx', ['tsx', 'src/main.ts'], { cwd: root, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
      let stdout = '';
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (c: string) => (stdout += c));
      child.stderr.setEncoding('utf8').on('data', (c: string) => (stderr += c));
      const guard = setTimeout(() => process.kill(-child.pid!, 'SIGKILL'), 20_000);
      const code = await new Promise<number | null>((resolve, reject) => {
        child.once('error', reject);
        child.once('close', (c) => resolve(c));
      }).finally(() => clearTimeout(guard));

      expect(code, `stdout: ${stdout}\nstderr: ${stderr}`).not.toBe(0);
      expect(code, 'killed after 20 s: the service started instead of refusing').not.toBeNull();
      expect(stderr).toMatch(/consent-ledger: PORT: invalid value/);
      expect(stdout).not.toMatch(/first start|serving/);
      expect(existsSync(dataDir)).toBe(false);
    } finally {
      rmSync(scratch, { recursive: true, force: true });
    }
  });
});
