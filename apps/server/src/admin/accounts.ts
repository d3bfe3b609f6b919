import { EmailSchema, PasswordSchema } from '@polyflow/contracts/auth';
import { type AccountDb, isUniqueViolation } from '../db/database.ts';
import { newId } from '../lib/ids.ts';
import { createPasswordHasher } from '../modules/auth/passwords.ts';
import { createAuthStore } from '../modules/auth/store.ts';
import { AdminError } from './admin-error.ts';

function parseEmail(value: string | undefined): string {
  const parsed = EmailSchema.safeParse(value ?? '');
  if (!parsed.success) throw new AdminError(`--email: "${value ?? ''}" is not an email address.`);
  return parsed.data;
}

function parsePassword(value: string | undefined): string {
  const parsed = PasswordSchema.safeParse(value ?? '');
  if (!parsed.success) throw new AdminError('--password: 8 to 256 characters.');
  return parsed.data;
}

/** What an operator does to accounts without the console. */
export function createAccountCommands(db: AccountDb) {
  const store = createAuthStore(db);
  const passwords = createPasswordHasher();
  const now = () => new Date().toISOString();

  async function existingUser(email: string | undefined) {
    const address = parseEmail(email);
    const user = await store.findUserByEmail(address);
    if (!user) throw new AdminError(`No user with the email ${address}.`);
    return user;
  }

  return {
    async createUser(options: { email?: string; password?: string; verified?: boolean }): Promise<string> {
      const email = parseEmail(options.email);
      const password = parsePassword(options.password);
      const at = now();
      try {
        await store.insertUser({
          id: newId(),
          email,
          password_hash: await passwords.hash(password),
          verified_at: options.verified ? at : null,
          password_changed_at: at,
          session_version: 0,
          created_at: at,
        });
      } catch (error) {
        if (isUniqueViolation(error)) throw new AdminError(`A user with the email ${email} exists already.`);
        throw error;
      }
      return `Created ${email}${options.verified ? ' (verified)' : ' (not verified: run verify-email, or let them use the link)'}.`;
    },

    async resetPassword(options: { email?: string; password?: string }): Promise<string> {
      const user = await existingUser(options.email);
      const password = parsePassword(options.password);
      await store.changePassword(user.id, await passwords.hash(password), now());
      return `New password set for ${user.email}; their earlier sessions are ended.`;
    },

    async verifyEmail(options: { email?: string }): Promise<string> {
      const user = await existingUser(options.email);
      if (user.verified_at) return `${user.email} was verified already (${user.verified_at}).`;
      await store.markVerified(user.id, now());
      return `Verified ${user.email}.`;
    },

    async listProjects(options: { email?: string }): Promise<string> {
      let query = db
        .selectFrom('projects')
        .innerJoin('users', 'users.id', 'projects.owner_id')
        .select(['projects.id', 'projects.name', 'projects.created_at', 'projects.api_key', 'users.email'])
        .orderBy('users.email')
        .orderBy('projects.created_at');
      if (options.email !== undefined) query = query.where('users.email', '=', parseEmail(options.email));
      const rows = await query.execute();
      if (rows.length === 0) return 'No projects.';
      const domains = await db.selectFrom('project_domains').select(['project_id', 'domain']).execute();
      const lines = rows.map((row) => {
        const own = domains.filter((domain) => domain.project_id === row.id).map((domain) => domain.domain);
        return [
          row.id,
          row.email,
          row.name,
          row.api_key ? 'key' : 'no key',
          own.join(',') || '-',
          row.created_at,
        ].join('\t');
      });
      return ['id\towner\tname\tapi key\tdomains\tcreated', ...lines].join('\n');
    },
  };
}
