// `node --import ./register.mjs`: appends the URL of every module the process loads to the file
// named by MODULE_TRACE_FILE (a test's check of what a command loads).
import { register } from 'node:module';

register('./hooks.mjs', import.meta.url);
