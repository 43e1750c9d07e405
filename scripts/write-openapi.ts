/**
 * Writes docs/openapi.json from the code: the production app (same wiring as `npm start`, admin
 * API included) on an in-memory store; and the typed client's types generated from it,
 * client/schema.ts (openapi-typescript, docs/client.md). `npm run openapi`;
 * test/openapi.int.spec.ts fails when either committed file differs from what this generates.
 */
import { writeFile } from 'node:fs/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';
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

/** Where the client's generated types are committed. */
export const CLIENT_TYPES_PATH = fileURLToPath(new URL('../client/schema.ts', import.meta.url));

/** The client's types: `paths`, `components` and `operations` of the document, as openapi-typescript writes them. */
export async function renderClientTypes(document: Record<string, unknown>): Promise<string> {
  const ast = await openapiTS(structuredClone(document) as never);
  return `// Generated from docs/openapi.json by \`npm run openapi\` (openapi-typescript): do not edit.\n${astToString(ast)}`;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const document = await buildOpenApiDocument();
  const text = renderOpenApi(document);
  await writeFile(OPENAPI_PATH, text);
  console.log(`wrote ${OPENAPI_PATH} (${text.length} bytes)`);
  const types = await renderClientTypes(document);
  await writeFile(CLIENT_TYPES_PATH, types);
  console.log(`wrote ${CLIENT_TYPES_PATH} (${types.length} bytes)`);
}
