/**
 * The admin command line's commands (cli.ts runs them as the process `npm run admin` starts): the command
 * line's arguments and environment in, the exit code out, what it prints through `output`. The tests run
 * most commands through this function in their own process, and a few through the real command.
 */
import { parseArgs } from 'node:util';
import { ConfigError, loadConfig } from '../config.ts';
import { createDatabase } from '../db/database.ts';
import { migrateToLatest } from '../db/migrations.ts';
import { createAccountCommands } from './accounts.ts';
import { AdminError } from './admin-error.ts';
import { backup, restore } from './backup.ts';
import { copyEventsToClickHouse } from './copy-to-clickhouse.ts';
import { askServer } from './server-socket.ts';

const HELP = `Polyflow admin: npm run admin -- <command> [options]

Commands:
  create-user --email EMAIL --password PASSWORD [--verified]   add an account (unverified unless --verified)
  reset-password --email EMAIL --password PASSWORD             set a new password, ending the user's sessions
  verify-email --email EMAIL                                   mark the email as verified
  list-projects [--email EMAIL]                                projects with their owner, key and domains
  backup --to DIR [--accounts-only]                            consistent copy of the stores into DIR
  restore --from DIR [--force]                                 put a backup back (server stopped)
  copy-events --to-clickhouse [--from FILE] [--load-events N]  copy the DuckDB event store into CLICKHOUSE_URL:
                                                               resumable, never twice, says when to switch;
                                                               N events per insert (default 100000)
  send-report --project ID [--kind weekly|monthly]             send the project's last week's (or month's)
                                                               report now to its subscribed members, through
                                                               the running server (once per member and period)

Stores: backup copies the accounts (SQLite VACUUM INTO, or pg_dump with DATABASE_URL) and the DuckDB event
store consistently while the server runs (docs/self-hosting.md). copy-events reads DATA_DIR/events.duckdb
while the server is stopped (DuckDB lets one process open it), or --from, a copy of it taken while the server
was stopped for a moment, and remembers what it copied in DATA_DIR/copy-events.checkpoint.json; see
docs/scaling.md for moving over.
The commands read the server's environment (DATA_DIR, DATABASE_URL, ...; see .env.example).`;

const COMMANDS = [
  'create-user',
  'reset-password',
  'verify-email',
  'list-projects',
  'backup',
  'restore',
  'copy-events',
  'send-report',
] as const;
type Command = (typeof COMMANDS)[number];

/** Where a command prints: the process's console, or a test's capture. */
export type AdminOutput = { log(value: unknown): void; error(value: unknown): void };

async function main(argv: string[], env: NodeJS.ProcessEnv, output: AdminOutput): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      help: { type: 'boolean', short: 'h' },
      email: { type: 'string' },
      password: { type: 'string' },
      verified: { type: 'boolean' },
      to: { type: 'string' },
      from: { type: 'string' },
      'accounts-only': { type: 'boolean' },
      force: { type: 'boolean' },
      'to-clickhouse': { type: 'boolean' },
      'load-events': { type: 'string' },
      project: { type: 'string' },
      kind: { type: 'string' },
    },
  });
  const command = positionals[0];
  if (values.help || command === undefined || command === 'help') {
    output.log(HELP);
    return command === undefined && !values.help ? 2 : 0;
  }
  if (!COMMANDS.includes(command as Command) || positionals.length > 1) {
    output.error(`Unknown command: ${positionals.join(' ')}\n\n${HELP}`);
    return 2;
  }
  const config = loadConfig(env);
  if (command === 'backup') {
    output.log(await backup(config, { to: values.to, accountsOnly: values['accounts-only'] }));
    return 0;
  }
  if (command === 'restore') {
    output.log(await restore(config, { from: values.from, force: values.force }));
    return 0;
  }
  if (command === 'copy-events') {
    if (!values['to-clickhouse'])
      throw new AdminError('copy-events needs --to-clickhouse (the only target).');
    const loadEvents = values['load-events'] === undefined ? undefined : Number(values['load-events']);
    if (loadEvents !== undefined && !(Number.isInteger(loadEvents) && loadEvents > 0))
      throw new AdminError('--load-events: a whole number of events per insert, at least 1.');
    output.log(await copyEventsToClickHouse(config, { from: values.from, loadEvents }));
    return 0;
  }
  if (command === 'send-report') {
    const kind = values.kind ?? 'weekly';
    if (!values.project) throw new AdminError('send-report needs --project ID (list-projects shows them).');
    if (kind !== 'weekly' && kind !== 'monthly') throw new AdminError('--kind: weekly or monthly.');
    // The server builds it: it holds the event store (DuckDB lets one process open it) and the outbox.
    const answer = await askServer(config.dataDir, {
      command: 'send-report',
      projectId: values.project,
      kind,
    });
    if (!answer)
      throw new AdminError('send-report needs the server running on this DATA_DIR (it reads the events).');
    if (!answer.ok) throw new AdminError(answer.message);
    output.log(answer.message);
    return 0;
  }
  const { db } = await createDatabase(config);
  try {
    await migrateToLatest(db);
    const accounts = createAccountCommands(db);
    const printed = await {
      'create-user': () => accounts.createUser(values),
      'reset-password': () => accounts.resetPassword(values),
      'verify-email': () => accounts.verifyEmail(values),
      'list-projects': () => accounts.listProjects(values),
    }[command as Exclude<Command, 'backup' | 'restore' | 'copy-events' | 'send-report'>]();
    output.log(printed);
    return 0;
  } finally {
    await db.destroy();
  }
}

/** Runs one command line; an operator's error is printed as one line, anything else with its stack. */
export async function runAdmin(argv: string[], env: NodeJS.ProcessEnv, output: AdminOutput): Promise<number> {
  try {
    return await main(argv, env, output);
  } catch (error) {
    const isOperatorError =
      error instanceof AdminError ||
      error instanceof ConfigError ||
      (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
    output.error(isOperatorError ? `Error: ${(error as Error).message}` : error);
    return 1;
  }
}
