import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** EventStoreDB for the test run, chosen once in global setup (test/global-setup.ts); tests read it through test/support/eventstore.ts. */

/** The image global setup starts when Docker is there (KurrentDB 25.1 or later: multi-stream appends). */
export const KURRENTDB_IMAGE = process.env.KURRENTDB_IMAGE ?? 'kurrentplatform/kurrentdb:25.1';

/**
 * Where a Docker engine answers, as testcontainers would find it, or undefined. Looks for a socket
 * file or DOCKER_HOST only, never dials: a client without an engine (as on the development
 * machines) costs nothing.
 */
export function dockerEngine(env: Record<string, string | undefined> = process.env): string | undefined {
  if (env.DOCKER_HOST) return env.DOCKER_HOST;
  const sockets = [
    '/var/run/docker.sock',
    env.XDG_RUNTIME_DIR ? join(env.XDG_RUNTIME_DIR, 'docker.sock') : undefined,
    join(homedir(), '.docker', 'run', 'docker.sock'),
    join(homedir(), '.docker', 'desktop', 'docker.sock'),
    env.XDG_RUNTIME_DIR ? join(env.XDG_RUNTIME_DIR, 'podman', 'podman.sock') : undefined,
  ];
  const found = sockets.find((s): s is string => s !== undefined && existsSync(s));
  return found ? `unix://${found}` : undefined;
}

/**
 * Chooses the EventStoreDB server for the run (global setup): EVENTSTORE_URL when set, else a
 * KurrentDB container when a Docker engine is there, else none, with the reason. Returns a stop
 * function for the container it started.
 */
export async function startEventStoreForRun(): Promise<{ url: string | null; missing: string | null; stop(): Promise<void> }> {
  const fromEnv = process.env.EVENTSTORE_URL;
  if (fromEnv) return { url: fromEnv, missing: null, stop: async () => undefined };
  const engine = dockerEngine();
  if (!engine) {
    return {
      url: null,
      missing: 'EVENTSTORE_URL is not set and no Docker engine was found (no DOCKER_HOST, no docker.sock)',
      stop: async () => undefined,
    };
  }
  const { GenericContainer, Wait } = await import('testcontainers');
  let container: Awaited<ReturnType<InstanceType<typeof GenericContainer>['start']>>;
  try {
    container = await new GenericContainer(KURRENTDB_IMAGE)
      .withEnvironment({
        KURRENTDB_INSECURE: 'true',
        KURRENTDB_CLUSTER_SIZE: '1',
        KURRENTDB_MEM_DB: 'true',
        KURRENTDB_RUN_PROJECTIONS: 'None',
      })
      .withExposedPorts(2113)
      .withWaitStrategy(Wait.forHttp('/health/live', 2113).forStatusCode(204))
      .withStartupTimeout(120_000)
      .start();
  } catch (error) {
    // An engine that cannot pull or start the image (no registry access, say) skips these tests, saying why.
    const why = `a Docker engine is there (${engine}) but ${KURRENTDB_IMAGE} did not start: ${(error as Error).message.split('\n')[0]}`;
    console.log(`[test] ${why}`);
    return { url: null, missing: why, stop: async () => undefined };
  }
  const url = `kurrentdb://${container.getHost()}:${container.getMappedPort(2113)}?tls=false`;
  return { url, missing: null, stop: async () => void (await container.stop()) };
}
