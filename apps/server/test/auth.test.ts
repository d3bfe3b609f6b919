import { SessionSchema } from '@polyflow/contracts/auth';
import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { apiClient, errorOf } from './support/client.ts';
import { ENGINES, uniqueEmail, useTestApp } from './support/harness.ts';
import { seed } from './support/seed.ts';
import { codeFrom } from './support/smtp-sink.ts';

const PASSWORD = 'a long enough password';
const HOUR = 60 * 60 * 1000;

describe.each(ENGINES)('accounts on %s', (engine) => {
  const t = useTestApp(engine);
  const api = () => apiClient(t.app);

  async function register(email: string, password = PASSWORD) {
    const response = await api().post('register', { body: { email, password } });
    expect(response.statusCode).toBe(204);
    expect(response.body).toBe('');
  }

  it('registers, emails a link and a code, verifies into a session, then logs in', async () => {
    const email = uniqueEmail();
    await register(email.toUpperCase());

    const message = await t.mail.waitFor(email, { subject: /verify/i });
    const code = codeFrom(message);
    expect(message.text).toContain(`http://polyflow.test/verify?token=${code}`);
    // Beside the link, a short code on a line of its own (auth-short-code.test.ts verifies with it).
    expect(message.text).toMatch(/^[A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{4}$/m);
    expect(code).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const stored = await t.services.db.selectFrom('email_tokens').select('token_hash').execute();
    expect(stored.some((row) => row.token_hash === code)).toBe(false);
    const user = await t.services.db
      .selectFrom('users')
      .selectAll()
      .where('email', '=', email)
      .executeTakeFirst();
    expect(user?.password_hash).toMatch(/^\$argon2id\$/);
    expect(user?.verified_at).toBeNull();

    const verified = await api().post('register/verify', { body: { token: code } });
    expect(verified.statusCode).toBe(200);
    const session = SessionSchema.parse(verified.json());
    expect(session.email).toBe(email);
    const ttl = Date.parse(session.validUntil) - Date.now();
    expect(ttl).toBeGreaterThan(6.9 * 24 * HOUR);
    expect(ttl).toBeLessThanOrEqual(7 * 24 * HOUR);
    expect((await api().get('projects', { token: session.token })).statusCode).toBe(200);

    const login = await api().post('login', { body: { email, password: PASSWORD } });
    expect(login.statusCode).toBe(200);
    expect(SessionSchema.parse(login.json()).email).toBe(email);
  });

  it('answers a second registration exactly like the first and sends the owner a notice instead', async () => {
    const owner = await seed(t.services).user().verified();
    const before = await t.services.db.selectFrom('users').select('id').execute();
    await register(owner.email, 'another password entirely');
    const notice = await t.mail.waitFor(owner.email);
    expect(notice.subject).toMatch(/your polyflow account/i);
    expect(notice.text).not.toMatch(/token=/);
    expect(await t.services.db.selectFrom('users').select('id').execute()).toHaveLength(before.length);
    // The original password still works; the one sent with the duplicate does not.
    expect(
      (await api().post('login', { body: { email: owner.email, password: owner.password } })).statusCode,
    ).toBe(200);
    const hijack = await api().post('login', {
      body: { email: owner.email, password: 'another password entirely' },
    });
    expect(hijack.statusCode).toBe(401);
  });

  it('re-sends a fresh verification when an unverified account registers again, keeping its password', async () => {
    const email = uniqueEmail();
    await register(email);
    await t.mail.waitFor(email);
    await register(email, 'attacker chosen password');
    const second = await t.mail.waitFor(email);
    const session = await api().post('register/verify', { body: { token: codeFrom(second) } });
    expect(session.statusCode).toBe(200);
    expect((await api().post('login', { body: { email, password: PASSWORD } })).statusCode).toBe(200);
    const other = await api().post('login', { body: { email, password: 'attacker chosen password' } });
    expect(other.statusCode).toBe(401);
  });

  it('refuses an unverified login with 403 mentioning "verified"', async () => {
    const user = await seed(t.services).user();
    const response = await api().post('login', { body: { email: user.email, password: user.password } });
    expect(response.statusCode).toBe(403);
    const error = errorOf(response);
    expect(error.errorCode).toBe('USER_NOT_YET_VERIFIED');
    expect(error.message).toContain('verified');
  });

  it('says the same thing for an unknown email and a wrong password', async () => {
    const user = await seed(t.services).user().verified();
    const wrong = await api().post('login', { body: { email: user.email, password: 'not the password' } });
    const unknown = await api().post('login', {
      body: { email: uniqueEmail(), password: 'not the password' },
    });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(errorOf(wrong)).toEqual(errorOf(unknown));
    expect(errorOf(wrong).errorCode).toBe('BAD_AUTHENTICATION');
  });

  it('resends a verification email only to unverified accounts, answering 204 for any email', async () => {
    const unverified = await seed(t.services).user();
    const verified = await seed(t.services).user().verified();
    for (const email of [unverified.email, verified.email, uniqueEmail('nobody')]) {
      const response = await api().post('register/resend', { body: { email } });
      expect(response.statusCode).toBe(204);
    }
    const message = await t.mail.waitFor(unverified.email);
    expect((await api().post('register/verify', { body: { token: codeFrom(message) } })).statusCode).toBe(
      200,
    );
    await t.services.mail.flush();
    expect(t.mail.pendingFor(verified.email)).toEqual([]);
  });

  it('accepts a verification code once', async () => {
    const email = uniqueEmail();
    await register(email);
    const code = codeFrom(await t.mail.waitFor(email));
    expect((await api().post('register/verify', { body: { token: code } })).statusCode).toBe(200);
    const again = await api().post('register/verify', { body: { token: code } });
    expect(again.statusCode).toBe(400);
    expect(errorOf(again).errorCode).toBe('USER_SECURE_TOKEN_INVALID');
  });

  it('accepts only one of three concurrent uses of one code', async () => {
    const email = uniqueEmail();
    await register(email);
    const code = codeFrom(await t.mail.waitFor(email));
    const answers = await Promise.all(
      [1, 2, 3].map(() => api().post('register/verify', { body: { token: code } })),
    );
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([200, 400, 400]);
  });

  it('expires a verification code after 24 hours', async () => {
    const email = uniqueEmail();
    await register(email);
    const code = codeFrom(await t.mail.waitFor(email));
    t.clock.advance(24 * HOUR + 1000);
    try {
      const response = await api().post('register/verify', { body: { token: code } });
      expect(response.statusCode).toBe(400);
      expect(errorOf(response).errorCode).toBe('USER_SECURE_TOKEN_INVALID');
    } finally {
      t.clock.reset();
    }
    // Still valid just before the deadline (the expired attempt above did not spend it).
    t.clock.advance(23 * HOUR);
    try {
      expect((await api().post('register/verify', { body: { token: code } })).statusCode).toBe(200);
    } finally {
      t.clock.reset();
    }
  });

  it('rejects a made-up verification code', async () => {
    const response = await api().post('register/verify', { body: { token: 'x'.repeat(43) } });
    expect(response.statusCode).toBe(400);
    expect(errorOf(response).errorCode).toBe('USER_SECURE_TOKEN_INVALID');
  });

  it('resets a password by email, ending earlier sessions and spending the code', async () => {
    const user = await seed(t.services).user().verified();
    expect((await api().get('projects', { token: user.token })).statusCode).toBe(200);

    const unknown = await api().post('forgot-password', { body: { email: uniqueEmail('nobody') } });
    expect(unknown.statusCode).toBe(204);
    expect((await api().post('forgot-password', { body: { email: user.email } })).statusCode).toBe(204);
    const message = await t.mail.waitFor(user.email, { subject: /reset/i });
    const code = codeFrom(message);
    expect(message.text).toContain(`http://polyflow.test/forgot-password?token=${code}`);

    const newPassword = 'my brand new password';
    const reset = await api().post('forgot-password/reset', { body: { token: code, newPassword } });
    expect(reset.statusCode).toBe(204);

    expect((await api().get('projects', { token: user.token })).statusCode).toBe(401);
    expect(
      (await api().post('login', { body: { email: user.email, password: user.password } })).statusCode,
    ).toBe(401);
    const login = await api().post('login', { body: { email: user.email, password: newPassword } });
    expect(login.statusCode).toBe(200);
    expect((await api().get('projects', { token: login.json().token })).statusCode).toBe(200);

    const again = await api().post('forgot-password/reset', {
      body: { token: code, newPassword: 'yet another one' },
    });
    expect(again.statusCode).toBe(400);
    expect(errorOf(again).errorCode).toBe('USER_SECURE_TOKEN_INVALID');
  });

  it('expires a reset code after an hour', async () => {
    const user = await seed(t.services).user().verified();
    await api().post('forgot-password', { body: { email: user.email } });
    const code = codeFrom(await t.mail.waitFor(user.email));
    t.clock.advance(HOUR + 1000);
    try {
      const response = await api().post('forgot-password/reset', {
        body: { token: code, newPassword: 'whatever123' },
      });
      expect(response.statusCode).toBe(400);
    } finally {
      t.clock.reset();
    }
    expect(
      (await api().post('login', { body: { email: user.email, password: user.password } })).statusCode,
    ).toBe(200);
  });

  it('does not accept a verification code as a reset code', async () => {
    const email = uniqueEmail();
    await register(email);
    const code = codeFrom(await t.mail.waitFor(email));
    const response = await api().post('forgot-password/reset', {
      body: { token: code, newPassword: 'whatever123' },
    });
    expect(response.statusCode).toBe(400);
  });

  describe('sessions', () => {
    it('rejects missing, malformed, forged and expired tokens with 401', async () => {
      const user = await seed(t.services).user().verified();
      const forged = await new SignJWT({ email: user.email, sv: 0 })
        .setProtectedHeader({ alg: 'HS256' })
        .setSubject(user.id)
        .setIssuer('polyflow')
        .setAudience('polyflow-console')
        .setIssuedAt()
        .setExpirationTime('1h')
        .sign(new TextEncoder().encode('some other secret that is long enough!!'));
      const [header, payload] = user.token.split('.');
      const unsigned = `${header}.${payload}.`;
      const noneAlg = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${payload}.`;
      for (const token of [undefined, 'garbage', forged, unsigned, noneAlg]) {
        const response = await api().get('projects', { token });
        expect(response.statusCode, String(token)).toBe(401);
        expect(errorOf(response).errorCode).toBe('BAD_AUTHENTICATION');
      }
      const basic = await api().get('projects', { headers: { authorization: `Basic ${user.token}` } });
      expect(basic.statusCode).toBe(401);

      expect((await api().get('projects', { token: user.token })).statusCode).toBe(200);
      t.clock.advance(7 * 24 * HOUR + 1000);
      try {
        expect((await api().get('projects', { token: user.token })).statusCode).toBe(401);
      } finally {
        t.clock.reset();
      }
    });

    it('ends the session of a deleted account', async () => {
      const user = await seed(t.services).user().verified();
      await t.services.db.deleteFrom('users').where('id', '=', user.id).execute();
      expect((await api().get('projects', { token: user.token })).statusCode).toBe(401);
    });
  });
});
