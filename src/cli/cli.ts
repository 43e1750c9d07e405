import { realpathSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import { COMMANDS, UsageError, type Command } from './commands.js';
import { EXIT, type CliEnvironment } from './command.js';

const HELP = `consent-ledger: the operator's command line

Usage: npx consent-ledger <command> [options]

Commands:
${COMMANDS.map((c) => `  ${c.usage}\n      ${c.summary}`).join('\n')}

Each command prints one JSON object on stdout (an {"error": {code, message}} object when it
fails) and human messages on stderr. Exit status: 0 done, 1 failed (or done in part: rows an
import refused), 2 bad arguments or settings.

It uses the service's settings from the environment: DATABASE_URL (a PostgreSQL server) or
else the embedded store in DATA_DIR (default ./data). The embedded store belongs to one process:
stop the service first, or use its admin API (ADMIN_TOKEN) while it runs.
`;

const commandHelp = (c: Command) => `Usage: npx consent-ledger ${c.usage}\n\n${c.summary}\n`;

const isHelp = (a: string | undefined) => a === '--help' || a === '-h' || a === 'help';

/**
 * Runs one CLI command and answers its exit status. Never calls process.exit, so that stdout is
 * flushed and the stores are closed first.
 *
 * @example
 * process.exitCode = await main(['tenant', 'create', '--name', 'Acme', '--plan', 'pro']);
 */
/**
 * parseArgs's error in a sentence: an option last, or followed by another option (an empty shell
 * variable: `--tenant --scope read`), lacks its value, said as such (with how to give one that
 * starts with a dash); otherwise its first sentence says what was wrong.
 */
function parseArgsMessage(message: string): string {
  const ambiguous = /^Option '(--[\w-]+)' argument is ambiguous/.exec(message);
  if (ambiguous) return `${ambiguous[1]} needs a value (one that starts with a dash is written ${ambiguous[1]}=-value)`;
  const missing = /^Option '(--[\w-]+) <value>' argument missing/.exec(message);
  if (missing) return `${missing[1]} needs a value`;
  return message.split('. ')[0]!.split('\n')[0]!;
}

export async function main(
  argv: readonly string[],
  cli: CliEnvironment = { env: process.env, stdout: process.stdout, stderr: process.stderr },
): Promise<number> {
  const out = (o: object) => cli.stdout.write(`${JSON.stringify(o, null, 2)}\n`);
  const say = (m: string) => cli.stderr.write(`${m}\n`);
  const fail = (status: number, code: string, message: string) => {
    say(`consent-ledger: ${message}`);
    out({ error: { code, message } });
    return status;
  };

  const [group, second, ...others] = argv;
  if (group === undefined) {
    say(HELP);
    return fail(EXIT.usage, 'USAGE', 'no command given');
  }
  if (isHelp(group)) {
    cli.stdout.write(HELP);
    return EXIT.ok;
  }
  // A command of one word (`witness`) takes every argument after it.
  const single = COMMANDS.find((c) => c.name === group);
  const action = single ? undefined : second;
  const rest = single ? argv.slice(1) : others;
  const inGroup = COMMANDS.filter((c) => c.name.split(' ')[0] === group);
  if (inGroup.length === 0) {
    say(HELP);
    // The service is not one of the operator's commands: say how it starts.
    const service = ['serve', 'server', 'start', 'run'].includes(group ?? '') ? ': the service itself starts with `npm start`' : '';
    return fail(EXIT.usage, 'USAGE', `unknown command "${group}"${service}`);
  }
  const command = single ?? inGroup.find((c) => c.name === `${group} ${action}`);
  if (!command) {
    const list = inGroup.map((c) => `  ${c.usage}`).join('\n');
    if (isHelp(action)) {
      cli.stdout.write(`Usage:\n${list}\n`);
      return EXIT.ok;
    }
    say(`Usage:\n${list}`);
    return fail(EXIT.usage, 'USAGE', action === undefined ? `"${group}" needs a subcommand` : `unknown command "${group} ${action}"`);
  }

  let input: unknown;
  try {
    const { values, positionals } = parseArgs({
      args: withNegativeValues(rest, command.options),
      options: { ...command.options, help: { type: 'boolean', short: 'h' } },
      strict: true,
      allowPositionals: command.positionals === true,
    });
    if (values.help) {
      cli.stdout.write(commandHelp(command) + (command.details ? `\n${command.details}\n` : ''));
      return EXIT.ok;
    }
    input = command.parse(values, positionals);
  } catch (error) {
    const message = error instanceof UsageError ? error.message : parseArgsMessage((error as Error).message);
    say(commandHelp(command));
    return fail(EXIT.usage, 'USAGE', message);
  }

  // The store and the command's implementation load only now: help and usage errors answer without them.
  const { runCommand } = await import('./run-command.js');
  return runCommand(command, input, cli, { out, say, fail });
}

// `tsx src/cli/cli.ts ...` runs it directly; bin/consent-ledger.js imports `main` from dist.
const invokedDirectly = (() => {
  try {
    return process.argv[1] !== undefined && import.meta.url === pathToFileURL(realpathSync(process.argv[1])).href;
  } catch {
    return false;
  }
})();
if (invokedDirectly) {
  process.exitCode = await main(process.argv.slice(2));
}

/**
 * An option's value that starts with a dash and a digit (`--time-zone -05:00`) joined to it
 * (`--time-zone=-05:00`): parseArgs would otherwise call it ambiguous, taking it for an option.
 */
function withNegativeValues(args: readonly string[], options: Record<string, { type: string }> = {}): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const name = args[i]!.startsWith('--') ? args[i]!.slice(2) : undefined;
    const next = args[i + 1];
    if (name !== undefined && options[name]?.type === 'string' && next !== undefined && /^-\d/.test(next)) {
      out.push(`${args[i]}=${next}`);
      i++;
    } else out.push(args[i]!);
  }
  return out;
}
