import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { dockerEngine, startEventStoreForRun } from './eventstore-engine.js';

describe('test engines › EventStoreDB › chooses EVENTSTORE_URL, else Docker, else none with the reason', () => {
  const saved = { EVENTSTORE_URL: process.env.EVENTSTORE_URL, DOCKER_HOST: process.env.DOCKER_HOST };
  afterEach(() => {
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
  });

  it('finds an engine by DOCKER_HOST or by a socket file, without dialling it', () => {
    expect(dockerEngine({ DOCKER_HOST: 'tcp://10.0.0.9:2375' })).toBe('tcp://10.0.0.9:2375');
    const dir = mkdtempSync(join(tmpdir(), 'cl-docker-'));
    try {
      expect(dockerEngine({ XDG_RUNTIME_DIR: dir })).toBe(dockerEngine({}));
      writeFileSync(join(dir, 'docker.sock'), '');
      expect(dockerEngine({ XDG_RUNTIME_DIR: dir })).toBe(dockerEngine({}) ?? `unix://${join(dir, 'docker.sock')}`);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('takes EVENTSTORE_URL as it is', async () => {
    process.env.EVENTSTORE_URL = 'kurrentdb://es.example:2113?tls=false';
    expect(await startEventStoreForRun()).toMatchObject({ url: 'kurrentdb://es.example:2113?tls=false', missing: null });
  });

  it('skips, saying why, when the Docker engine named cannot start KurrentDB', { timeout: 20_000 }, async () => {
    delete process.env.EVENTSTORE_URL;
    process.env.DOCKER_HOST = 'unix:///nonexistent/docker.sock';
    const chosen = await startEventStoreForRun();
    expect(chosen.url).toBeNull();
    expect(chosen.missing).toMatch(
      /^a Docker engine is there \(unix:\/\/\/nonexistent\/docker.sock\) but kurrentplatform\/kurrentdb:25\.1 did not start: /,
    );
  });
});
