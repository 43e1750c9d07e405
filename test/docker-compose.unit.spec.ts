import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Value } from '@sinclair/typebox/value';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { EnvironmentSchema } from '../src/config.js';
import { repoRoot } from './support/process.js';

/**
 * docker-compose.yml, the Dockerfile and .dockerignore (issue 9, part 3). There is no Docker
 * engine where the tests run, so `docker compose up` itself is not run here: these checks hold the
 * files to what it needs (every dependency healthy before the service starts, settings the
 * service knows and accepts, URLs naming the compose services, a build that compiles what
 * `npm start` runs).
 */

const read = (file: string) => readFileSync(join(repoRoot, file), 'utf8');

interface Healthcheck {
  test: string[] | string;
  interval?: string;
}
interface ComposeService {
  image?: string;
  build?: string | object;
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: Healthcheck;
  volumes?: string[];
  ports?: string[];
}
const compose = parse(read('docker-compose.yml')) as { services: Record<string, ComposeService>; volumes: Record<string, unknown> };
const { services } = compose;
const service = services.service!;

/** Compose's interpolation of `${NAME:-default}` / `${NAME-default}` with nothing set. */
const withDefaults = (value: string) => value.replace(/\$\{[A-Z_]+:?-([^}]*)\}/g, '$1');
const env = Object.fromEntries(Object.entries(service.environment ?? {}).map(([k, v]) => [k, withDefaults(String(v))]));

describe('docker-compose.yml › the stack', () => {
  it('runs KurrentDB, PostgreSQL, Redis and the service built from this folder', () => {
    expect(Object.keys(services).sort()).toEqual(['kurrentdb', 'postgres', 'redis', 'service']);
    expect(services.kurrentdb!.image).toMatch(/^(kurrentplatform\/kurrentdb|docker\.kurrent\.io\/kurrent-latest\/kurrentdb):\d/);
    expect(services.postgres!.image).toMatch(/^postgres:\d+/);
    expect(services.redis!.image).toMatch(/^redis:\d+/);
    expect(service.build).toBe('.');
  });

  it('gives every container a health check, and starts the service only once the others are healthy', () => {
    for (const [name, s] of Object.entries(services)) {
      expect(s.healthcheck?.test, name).toBeDefined();
      expect(s.healthcheck!.test.length, name).toBeGreaterThan(0);
    }
    expect(service.depends_on).toEqual({
      kurrentdb: { condition: 'service_healthy' },
      postgres: { condition: 'service_healthy' },
      redis: { condition: 'service_healthy' },
    });
    expect(JSON.stringify(service.healthcheck!.test)).toContain(`http://127.0.0.1:${env.PORT}/ready`);
    expect(JSON.stringify(services.kurrentdb!.healthcheck!.test)).toContain('http://localhost:2113/health/live');
  });

  it('keeps every store on a named volume', () => {
    const named = (s: ComposeService) =>
      (s.volumes ?? []).map((v) => v.split(':')[0]!).filter((v) => !v.startsWith('.') && !v.startsWith('/'));
    for (const name of ['kurrentdb', 'postgres', 'redis', 'service']) {
      expect(named(services[name]!).length, name).toBeGreaterThan(0);
      for (const v of named(services[name]!)) expect(Object.keys(compose.volumes), `${name}: ${v}`).toContain(v);
    }
    expect(services.kurrentdb!.volumes).toContain('kurrentdb-data:/var/lib/kurrentdb');
    expect(services.postgres!.volumes).toContain('postgres-data:/var/lib/postgresql/data');
    // The generated master key lives in DATA_DIR: losing it loses every personal field.
    expect(service.volumes).toContain(`service-data:${env.DATA_DIR}`);
  });

  it('runs KurrentDB in insecure mode, and the service connects to it without TLS', () => {
    expect(services.kurrentdb!.environment?.KURRENTDB_INSECURE).toBe('true');
    expect(env.EVENTSTORE_URL).toBe('kurrentdb://kurrentdb:2113?tls=false');
  });

  it("sets only settings the service knows, each valid by the service's own schema", () => {
    for (const name of Object.keys(env)) expect(Object.keys(EnvironmentSchema.properties), name).toContain(name);
    for (const name of ['EVENTSTORE_URL', 'DATABASE_URL', 'REDIS_URL', 'ADMIN_TOKEN', 'PUBLIC_BASE_URL'])
      expect(env, name).toHaveProperty(name);
    expect([...Value.Errors(EnvironmentSchema, env)].map((e) => `${e.path}: ${e.message}`)).toEqual([]);
    expect(env.HOST).toBe('0.0.0.0');
  });

  it('points the service at the compose services by name, with their credentials', () => {
    const pg = new URL(env.DATABASE_URL!);
    expect([pg.hostname, pg.port, pg.username, pg.pathname]).toEqual([
      'postgres',
      '5432',
      services.postgres!.environment!.POSTGRES_USER,
      `/${services.postgres!.environment!.POSTGRES_DB}`,
    ]);
    expect(pg.password).toBe(withDefaults(services.postgres!.environment!.POSTGRES_PASSWORD!));
    expect(env.REDIS_URL).toBe('redis://redis:6379');
    expect(service.ports).toContain(`${env.PORT}:${env.PORT}`);
  });
});

describe('Dockerfile › the service image', () => {
  const dockerfile = read('Dockerfile');
  const build = JSON.parse(read('tsconfig.build.json')) as { include: string[] };

  it('builds on Node 20 with npm ci, and runs npm start as a user other than root', () => {
    expect(dockerfile).toMatch(/^FROM node:20[-\w]* AS build$/m);
    expect(dockerfile).toMatch(/RUN npm ci\b/);
    const runtime = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));
    expect(runtime).toMatch(/^FROM node:20/m);
    expect(runtime).toMatch(/^USER node$/m);
    expect(runtime).toMatch(/^CMD \["npm", "start"\]$/m);
    expect(runtime).toMatch(/^HEALTHCHECK .*\n?.*\/ready/m);
  });

  it('copies every folder the build compiles, and bin/ for the CLI', () => {
    for (const folder of [...build.include, 'bin']) expect(dockerfile).toMatch(new RegExp(`^COPY ${folder} \\./${folder}$`, 'm'));
  });

  it('.dockerignore keeps local state and build output out of the context', () => {
    const ignored = read('.dockerignore')
      .split('\n')
      .map((l) => l.trim());
    for (const entry of ['node_modules', 'dist', 'data', '.git', '.env', '**/master.key']) expect(ignored, entry).toContain(entry);
    for (const needed of ['src', 'projections', 'bin', 'package.json', 'package-lock.json']) expect(ignored, needed).not.toContain(needed);
  });
});
