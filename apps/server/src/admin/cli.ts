/**
 * `npm run admin -- <command>`: what an operator does without the console, on the server's own
 * configuration (the same environment: DATA_DIR, DATABASE_URL, …). `--help` lists the commands.
 */
import { runAdmin } from './run-admin.ts';

runAdmin(process.argv.slice(2), process.env, console).then((code) => process.exit(code));
