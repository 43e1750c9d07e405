import { isIP } from 'node:net';
import { Type, type Static } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { parseWitnesses, type WitnessSpec } from './transparency/witness-relay.js';

const BooleanFlag = Type.Union([Type.Literal('true'), Type.Literal('false'), Type.Literal('1'), Type.Literal('0')]);

/** The environment the service reads, once, at start. Names are docs/contract.md's (Operation). */
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

export const EnvironmentSchema = Type.Object({
  PORT: Type.Optional(Type.String({ pattern: '^[0-9]{1,5}$', description: 'TCP port, 0..65535' })),
  HOST: Type.Optional(Type.String({ minLength: 1 })),
  DATA_DIR: Type.Optional(Type.String({ minLength: 1 })),
  DATABASE_URL: Type.Optional(Type.String({ pattern: '^postgres(ql)?://', description: 'a postgres:// URL' })),
  EVENTSTORE_URL: Type.Optional(
    Type.String({ pattern: '^(esdb|kurrentdb|kdb)(\\+discover)?://', description: 'an esdb:// or kurrentdb:// URL' }),
  ),
  EVENTSTORE_STREAM_PREFIX: Type.Optional(
    Type.String({ pattern: '^[A-Za-z0-9_.:-]{1,64}$', description: 'letters, digits and _ . : - (at most 64)' }),
  ),
  REDIS_URL: Type.Optional(Type.String({ pattern: '^rediss?://', description: 'a redis:// URL' })),
  // Printable ASCII only: HTTP clients send a header's other characters in encodings that differ.
  ADMIN_TOKEN: Type.Optional(
    Type.String({ minLength: 16, pattern: '^[!-~]+$', description: 'at least 16 printable ASCII characters, no spaces' }),
  ),
  PUBLIC_BASE_URL: Type.Optional(Type.String({ pattern: '^https?://[^\\s/]+(/[^\\s]*)?$', description: 'an http(s):// URL' })),
  TRUST_PROXY: Type.Optional(Type.String({ minLength: 1 })),
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: Type.Optional(BooleanFlag),
  WEBHOOK_ALLOW_HTTP: Type.Optional(BooleanFlag),
  WEBHOOK_RETRY_SCALE: Type.Optional(Type.String({ pattern: '^[0-9]*\\.?[0-9]+(e-?[0-9]+)?$', description: 'a positive number' })),
  LOG_LEVEL: Type.Optional(
    Type.Union(
      LOG_LEVELS.map((l) => Type.Literal(l)),
      { description: `one of ${LOG_LEVELS.join(', ')}` },
    ),
  ),
  MASTER_KEY: Type.Optional(
    Type.String({ pattern: '^\\s*([0-9a-fA-F]{64}|[A-Za-z0-9+/_-]{43}=?)\\s*$', description: '32 bytes as 64 hex characters or base64' }),
  ),
  TRANSPARENCY_SIGNING_KEY: Type.Optional(
    Type.String({
      pattern: '^\\s*([0-9a-fA-F]{64}|[A-Za-z0-9+/]{43}=)\\s*$',
      description: 'an Ed25519 seed: 32 bytes as 64 hex characters or base64',
    }),
  ),
  SHUTDOWN_TIMEOUT: Type.Optional(
    Type.String({
      pattern: '^[0-9]{1,4}$',
      description: 'seconds a SIGTERM drain may take before the process exits anyway (status 1); 2 to 9999',
    }),
  ),
  REQUEST_TIMEOUT: Type.Optional(
    Type.String({
      pattern: '^[0-9]{1,4}$',
      description:
        'seconds a request, its body included, may take to arrive before it is answered 408 and its connection closed; 1 to 9999',
    }),
  ),
  PROJECTIONS_VERIFY_MINUTES: Type.Optional(
    Type.String({ pattern: '^[0-9]{1,6}$', description: 'minutes between checks of the read models against the ledger; 0 = never' }),
  ),
  EMBEDDED_VACUUM_MINUTES: Type.Optional(
    Type.String({ pattern: '^[0-9]{1,5}$', description: 'minutes between vacuum rounds of the embedded store; 0 = never' }),
  ),
  WEBHOOK_HISTORY_DAYS: Type.Optional(
    Type.String({ pattern: '^[0-9]{1,5}$', description: 'days webhook attempts and settled deliveries are kept; 0 = forever' }),
  ),
  WITNESSES: Type.Optional(
    Type.String({ minLength: 1, description: "comma-separated VKEY@URL: each witness's cosignature vkey and base URL" }),
  ),
  WITNESS_QUORUM: Type.Optional(Type.String({ pattern: '^[1-9][0-9]{0,2}$', description: 'a whole number of witnesses, at least 1' })),
  MASTER_KEY_FILE: Type.Optional(Type.String({ minLength: 1, description: 'a path to a file holding the master key' })),
  TRANSPARENCY_SIGNING_KEY_FILE: Type.Optional(
    Type.String({ minLength: 1, description: 'a path to a file holding the checkpoint signing key (an Ed25519 seed)' }),
  ),
});
export type Environment = Static<typeof EnvironmentSchema>;

export interface Settings {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  /** The EventStoreDB (KurrentDB 25.1+) holding the ledger; when absent the ledger is PostgreSQL (the store's database). */
  eventStoreUrl: string | undefined;
  /** Prefix of the ledger's ESDB streams (several ledgers on one cluster); empty by default. */
  eventStoreStreamPrefix: string;
  redisUrl: string | undefined;
  adminToken: string | undefined;
  publicBaseUrl: string;
  /** Fastify's `trustProxy`: false, true, a hop count, or a list of addresses/CIDRs. */
  trustProxy: boolean | number | string[];
  webhookAllowPrivateNetworks: boolean;
  webhookAllowHttp: boolean;
  webhookRetryScale: number;
  logLevel: string;
  /**
   * The checkpoint and event signing key (an Ed25519 seed): TRANSPARENCY_SIGNING_KEY, else
   * TRANSPARENCY_SIGNING_KEY_FILE, else DATA_DIR/signing.key (generated on the first start). Never in the store.
   */
  transparencySigningKey: string | undefined;
  transparencySigningKeyFile: string | undefined;
  /** The master key wrapping every data key (docs/erasure.md); else MASTER_KEY_FILE, else DATA_DIR/master.key. */
  masterKey: string | undefined;
  masterKeyFile: string | undefined;
  /** Witnesses asked to cosign each checkpoint (WITNESSES), and how many must (WITNESS_QUORUM, default all). */
  witnesses: WitnessSpec[];
  witnessQuorum: number;
  /** Minutes between vacuum rounds of the embedded store (EMBEDDED_VACUUM_MINUTES, default 10); 0: none. */
  embeddedVacuumMinutes: number;
  /** Days webhook attempts and settled deliveries are kept (WEBHOOK_HISTORY_DAYS, default 90); 0: forever. */
  webhookHistoryDays: number;
  /** Minutes between scheduled `projections verify` runs (PROJECTIONS_VERIFY_MINUTES); 0: none. */
  projectionsVerifyMinutes: number;
  /** Seconds a SIGTERM drain may take before the process exits anyway (SHUTDOWN_TIMEOUT, default 25). */
  shutdownTimeoutSeconds: number;
  /** Seconds a request, its body included, may take to arrive (REQUEST_TIMEOUT, default 120). */
  requestTimeoutSeconds: number;
}

/** The longest delay a Node timer keeps, 2^31 - 1 ms (about 24.8 days), in whole minutes. */
const TIMER_MINUTES = Math.floor((2 ** 31 - 1) / 60_000);

/** A host name: dot-separated labels of letters, digits, hyphens (and underscores, as container names have), the last not all digits. */
const HOST_NAME = /^(?=.{1,253}$)([a-z0-9_]([a-z0-9_-]{0,61}[a-z0-9_])?\.)*[a-z0-9_-]*[a-z_-][a-z0-9_-]*\.?$/i;

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

const flag = (v: string | undefined) => v === 'true' || v === '1';

// proxy-addr (Fastify's trustProxy) also knows these names for address ranges.
const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** An IP address, or an address with a prefix length its family allows ("10.0.0.0/8", "fd00::/8"). */
function isAddressOrCidr(text: string): boolean {
  if (PROXY_RANGE_NAMES.has(text)) return true;
  const [address = '', prefix, ...rest] = text.split('/');
  const family = isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  return /^[0-9]{1,3}$/.test(prefix) && Number(prefix) <= (family === 4 ? 32 : 128);
}

function parseTrustProxy(raw: string | undefined): Settings['trustProxy'] {
  if (raw === undefined || raw === 'false' || raw === '0') return false;
  if (raw === 'true') return true;
  if (/^[0-9]+$/.test(raw)) return Number(raw);
  const list = raw
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (list.length === 0 || !list.every(isAddressOrCidr)) {
    throw new ConfigError(
      'TRUST_PROXY: expected true, false, a hop count, or a comma-separated list of addresses/CIDRs (or loopback, linklocal, uniquelocal)',
    );
  }
  return list;
}

/** Whether the driver can read a connection URL: it parses it as a URL, a socket's empty host (`@/`) included. */
function parsesAsUrl(value: string): boolean {
  for (const candidate of [value, value.replace('@/', '@localhost/')]) {
    try {
      new URL(candidate);
      return true;
    } catch {
      // Tried again as a socket's URL, then refused.
    }
  }
  return false;
}

/**
 * Reads and validates the settings. A wrong value throws a ConfigError naming the setting.
 *
 * @example
 * const settings = loadSettings(process.env); // { port: 3000, dataDir: './data', ... }
 */
export function loadSettings(env: Record<string, string | undefined>): Settings {
  const picked: Record<string, string> = {};
  for (const key of Object.keys(EnvironmentSchema.properties)) {
    const v = env[key];
    if (v !== undefined && v !== '') picked[key] = v;
  }
  const errors = [...Value.Errors(EnvironmentSchema, picked)];
  if (errors.length > 0) {
    const lines = errors.map((e) => {
      const name = e.path.replace(/^\//, '');
      const schema = (EnvironmentSchema.properties as Record<string, { description?: string }>)[name];
      return `${name}: invalid value (${schema?.description ?? e.message})`;
    });
    throw new ConfigError([...new Set(lines)].join('; '));
  }
  const e = picked as Environment;
  if (e.DATABASE_URL !== undefined && !parsesAsUrl(e.DATABASE_URL)) {
    throw new ConfigError(
      'DATABASE_URL: invalid value (a postgres:// URL that parses, postgres://USER:PASSWORD@HOST:PORT/DATABASE, with characters such as @ : / # in the password percent-encoded)',
    );
  }
  const port = e.PORT === undefined ? 3000 : Number(e.PORT);
  if (port > 65535) throw new ConfigError('PORT: invalid value (TCP port, 0..65535)');
  const shutdownTimeoutSeconds = e.SHUTDOWN_TIMEOUT === undefined ? 25 : Number(e.SHUTDOWN_TIMEOUT);
  if (shutdownTimeoutSeconds < 2) throw new ConfigError('SHUTDOWN_TIMEOUT: invalid value (seconds, 2..9999)');
  const requestTimeoutSeconds = e.REQUEST_TIMEOUT === undefined ? 120 : Number(e.REQUEST_TIMEOUT);
  if (requestTimeoutSeconds < 1) throw new ConfigError('REQUEST_TIMEOUT: invalid value (seconds, 1..9999)');
  // Each is a timer's delay, and a Node timer waits at most 2^31 - 1 ms (a longer one fires at once, again and again).
  for (const name of ['PROJECTIONS_VERIFY_MINUTES', 'EMBEDDED_VACUUM_MINUTES'] as const) {
    if (e[name] !== undefined && Number(e[name]) > TIMER_MINUTES) {
      throw new ConfigError(`${name}: invalid value (minutes, 0..${TIMER_MINUTES}: about 24 days at most)`);
    }
  }
  const scale = e.WEBHOOK_RETRY_SCALE === undefined ? 1 : Number(e.WEBHOOK_RETRY_SCALE);
  if (!(scale > 0) || !Number.isFinite(scale)) throw new ConfigError('WEBHOOK_RETRY_SCALE: invalid value (a positive number)');
  if (e.MASTER_KEY !== undefined && e.MASTER_KEY_FILE !== undefined) {
    throw new ConfigError('MASTER_KEY, MASTER_KEY_FILE: set one of them, not both');
  }
  if (e.TRANSPARENCY_SIGNING_KEY !== undefined && e.TRANSPARENCY_SIGNING_KEY_FILE !== undefined) {
    throw new ConfigError('TRANSPARENCY_SIGNING_KEY, TRANSPARENCY_SIGNING_KEY_FILE: set one of them, not both');
  }
  const host = e.HOST ?? '127.0.0.1';
  // An address, or a host name whose last label is not all digits (999.1.1.1 is neither).
  if (isIP(host) === 0 && !HOST_NAME.test(host)) {
    throw new ConfigError(
      'HOST: invalid value (an IPv4 or IPv6 address of this machine, such as 0.0.0.0 or :: (no brackets), or a host name)',
    );
  }
  let witnesses: WitnessSpec[];
  try {
    witnesses = parseWitnesses(e.WITNESSES);
  } catch (error) {
    throw new ConfigError((error as Error).message);
  }
  const witnessQuorum = e.WITNESS_QUORUM === undefined ? witnesses.length : Number(e.WITNESS_QUORUM);
  if (e.WITNESS_QUORUM !== undefined && witnessQuorum > witnesses.length) {
    throw new ConfigError(`WITNESS_QUORUM: ${witnessQuorum} is more than the ${witnesses.length} WITNESSES`);
  }
  return {
    port,
    host,
    dataDir: e.DATA_DIR ?? './data',
    databaseUrl: e.DATABASE_URL,
    eventStoreUrl: e.EVENTSTORE_URL,
    eventStoreStreamPrefix: e.EVENTSTORE_STREAM_PREFIX ?? '',
    redisUrl: e.REDIS_URL,
    adminToken: e.ADMIN_TOKEN,
    publicBaseUrl: (e.PUBLIC_BASE_URL ?? `http://localhost:${port}`).replace(/\/+$/, ''),
    trustProxy: parseTrustProxy(e.TRUST_PROXY),
    webhookAllowPrivateNetworks: flag(e.WEBHOOK_ALLOW_PRIVATE_NETWORKS),
    webhookAllowHttp: flag(e.WEBHOOK_ALLOW_HTTP),
    webhookRetryScale: scale,
    logLevel: e.LOG_LEVEL ?? 'info',
    masterKey: e.MASTER_KEY,
    transparencySigningKey: e.TRANSPARENCY_SIGNING_KEY?.trim(),
    transparencySigningKeyFile: e.TRANSPARENCY_SIGNING_KEY_FILE,
    masterKeyFile: e.MASTER_KEY_FILE,
    witnesses,
    witnessQuorum,
    projectionsVerifyMinutes: e.PROJECTIONS_VERIFY_MINUTES === undefined ? 0 : Number(e.PROJECTIONS_VERIFY_MINUTES),
    shutdownTimeoutSeconds,
    requestTimeoutSeconds,
    webhookHistoryDays: e.WEBHOOK_HISTORY_DAYS === undefined ? 90 : Number(e.WEBHOOK_HISTORY_DAYS),
    embeddedVacuumMinutes: e.EMBEDDED_VACUUM_MINUTES === undefined ? 10 : Number(e.EMBEDDED_VACUUM_MINUTES),
  };
}
