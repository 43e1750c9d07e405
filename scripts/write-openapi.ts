/**
 * Writes docs/openapi.json from the code: the production app (same wiring as `npm start`, admin
 * API included) on an in-memory store. `npm run openapi`; test/openapi.int.spec.ts fails when
 * the committed file differs from what this generates.
 */
import { writeFile } from 'node:fs/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { loadSettings } from '../src/config.js';
import { createService } from '../src/service.js';

/** Where the document is committed. */
export const OPENAPI_PATH = fileURLToPath(new URL('../docs/openapi.json', import.meta.url));

/** The OpenAPI document of the app, as an object. */
export async function buildOpenApiDocument(): Promise<Record<string, unknown>> {
  const settings = loadSettings({
    DATA_DIR: 'memory://',
    // Any token enables the admin API, so that its routes are documented too.
    ADMIN_TOKEN: 'openapi-document-generation-token',
    LOG_LEVEL: 'silent',
  });
  const service = await createService(settings);
  try {
    await service.app.ready();
    return service.app.swagger() as unknown as Record<string, unknown>;
  } finally {
    await service.close();
  }
}

/** The document as committed: pretty-printed, with a trailing newline. */
export const renderOpenApi = (document: unknown): string => `${JSON.stringify(document, null, 2)}\n`;

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const text = renderOpenApi(await buildOpenApiDocument());
  await writeFile(OPENAPI_PATH, text);
  console.log(`wrote ${OPENAPI_PATH} (${text.length} bytes)`);
}
