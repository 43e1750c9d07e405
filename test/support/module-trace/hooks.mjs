// Module resolution hooks (node:module `register`): each resolved URL, one per line, to MODULE_TRACE_FILE.
import { appendFileSync } from 'node:fs';
import process from 'node:process';

export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  if (process.env.MODULE_TRACE_FILE) appendFileSync(process.env.MODULE_TRACE_FILE, `${resolved.url}\n`);
  return resolved;
}
