import { SessionSchema, SHORT_CODE_MAX_ATTEMPTS } from '@polyflow/contracts/auth';
import { describe, expect, it } from 'vitest';
import { apiClient, errorOf } from './support/client.ts';
import { ENGINES, uniqueEmail, useTestApp } from './support/harness.ts';
import { codeFrom, shortCodeFrom } from './support/smtp-sink.ts';

const PASSWORD = 'a long enough password';
const HOUR = 60 * 60 * 1000;

/** A well-formed code that differs from `code` (same alphabet, same length). */
const wrongCodeFor = (code: string) => (code.startsWith('ZZZZ') ? 'YYYY-YYYY' : 'ZZZZ-ZZZZ');

describe.each(ENGINES)('short verification codes on %s', (engine) => {
  const t = useTestApp(engine);
  const api = () => apiClient(t.app);

  async function signUp(email: string) {
    expect((await api().post('register', { body: { email, password: PASSWORD } })).statusCode).toBe(204);
    return verificationMail(email);
  }

  async function verificationMail(email: string) {
    const mail = await t.mail.waitFor(email, { subject: /verify/i });
    return { token: codeFrom(mail), code: shortCodeFrom(mail) };
  }

  const verifyByCode = (email: string, code: string) =>
    api().post('register/verify', { body: { email, code } });

  function expectWrongCode(response: Awaited<ReturnType<typeof verifyByCode>>) {
    expect(response.statusCode).toBe(400);
    const error = errorOf(response);
    expect(error.errorCode).toBe('USER_SECURE_CODE_INVALID');
    expect(error.message).toMatch(/wrong, already used or expired/);
  }

  it('verifies with the email and the short code, typed in any case and with or without the dash', async () => {
    const email = uniqueEmail();
    const { token, code } = await signUp(email);
    expect(code).toMatch(/^[A-HJ-NP-Z2-9]{4}-[A-HJ-NP-Z2-9]{4}$/);
    const stored = await t.services.db.selectFrom('email_tokens').select(['code_hash']).execute();
    expect(stored.some((row) => row.code_hash?.includes(code.replace('-', '')))).toBe(false);

    const verified = await verifyByCode(email.toUpperCase(), ` ${code.replace('-', ' ').toLowerCase()} `);
    expect(verified.statusCode).toBe(200);
    const session = SessionSchema.parse(verified.json());
    expect(session.email).toBe(email);
    expect((await api().get('projects', { token: session.token })).statusCode).toBe(200);

    // Single use, and the link of the same email is spent with it.
    expectWrongCode(await verifyByCode(email, code));
    const link = await api().post('register/verify', { body: { token } });
    expect(errorOf(link).errorCode).toBe('USER_SECURE_TOKEN_INVALID');
  });

  it(`ends the code after ${SHORT_CODE_MAX_ATTEMPTS} wrong tries; the link still works`, async () => {
    const email = uniqueEmail();
    const { token, code } = await signUp(email);
    for (let i = 0; i < SHORT_CODE_MAX_ATTEMPTS; i++)
      expectWrongCode(await verifyByCode(email, wrongCodeFor(code)));

    expectWrongCode(await verifyByCode(email, code));
    const link = await api().post('register/verify', { body: { token } });
    expect(link.statusCode).toBe(200);
  });

  it('accepts the right code after fewer wrong tries than the limit, and a resent code tries afresh', async () => {
    const email = uniqueEmail();
    const first = await signUp(email);
    for (let i = 0; i < SHORT_CODE_MAX_ATTEMPTS; i++) {
      expectWrongCode(await verifyByCode(email, wrongCodeFor(first.code)));
    }
    expect((await api().post('register/resend', { body: { email } })).statusCode).toBe(204);
    const second = await verificationMail(email);
    for (let i = 0; i < SHORT_CODE_MAX_ATTEMPTS - 1; i++) {
      expectWrongCode(await verifyByCode(email, wrongCodeFor(second.code)));
    }
    expect((await verifyByCode(email, second.code)).statusCode).toBe(200);
  });

  it('counts concurrent wrong tries against the limit too', async () => {
    const email = uniqueEmail();
    const { code } = await signUp(email);
    const guesses = Array.from({ length: SHORT_CODE_MAX_ATTEMPTS * 2 }, () =>
      verifyByCode(email, wrongCodeFor(code)),
    );
    for (const response of await Promise.all(guesses)) expectWrongCode(response);
    const rows = await t.services.db
      .selectFrom('email_tokens')
      .innerJoin('users', 'users.id', 'email_tokens.user_id')
      .select('email_tokens.code_attempts')
      .where('users.email', '=', email)
      .execute();
    expect(rows.map((row) => Number(row.code_attempts))).toEqual([SHORT_CODE_MAX_ATTEMPTS]);
    expectWrongCode(await verifyByCode(email, code));
  });

  it('expires with its link after 24 hours', async () => {
    const email = uniqueEmail();
    const { code } = await signUp(email);
    t.clock.advance(24 * HOUR + 1000);
    try {
      expectWrongCode(await verifyByCode(email, code));
    } finally {
      t.clock.reset();
    }
    t.clock.advance(23 * HOUR);
    try {
      expect((await verifyByCode(email, code)).statusCode).toBe(200);
    } finally {
      t.clock.reset();
    }
  });

  it("is ended by a verification with another of the user's links", async () => {
    const email = uniqueEmail();
    const first = await signUp(email);
    expect((await api().post('register/resend', { body: { email } })).statusCode).toBe(204);
    const second = await verificationMail(email);
    expect((await api().post('register/verify', { body: { token: second.token } })).statusCode).toBe(200);
    expectWrongCode(await verifyByCode(email, first.code));
  });

  it('is ended by a password reset, like every outstanding code', async () => {
    const email = uniqueEmail();
    const { code } = await signUp(email);
    expect((await api().post('forgot-password', { body: { email } })).statusCode).toBe(204);
    const reset = codeFrom(await t.mail.waitFor(email, { subject: /reset/i }));
    const done = await api().post('forgot-password/reset', {
      body: { token: reset, newPassword: 'another long enough password' },
    });
    expect(done.statusCode).toBe(204);
    expectWrongCode(await verifyByCode(email, code));
  });

  it("answers an unknown email like a wrong code, and never opens another account's code", async () => {
    const email = uniqueEmail();
    const { code } = await signUp(email);
    expectWrongCode(await verifyByCode(uniqueEmail(), code));
    const other = uniqueEmail();
    await signUp(other);
    expectWrongCode(await verifyByCode(other, code));
    expect((await verifyByCode(email, code)).statusCode).toBe(200);
  });

  it('refuses malformed bodies with a 400 and no change', async () => {
    const email = uniqueEmail();
    const { token, code } = await signUp(email);
    for (const body of [
      { email, code: 'ABC' },
      { email, code: 'OOOO-0000' },
      { email: 'not an email', code },
      { code },
      { email, code, token },
      { email, token },
    ]) {
      const response = await api().post('register/verify', { body });
      expect(response.statusCode, JSON.stringify(body)).toBe(400);
      expect(errorOf(response).errorCode).toBe('INVALID_REQUEST_BODY');
    }
    expect((await verifyByCode(email, code)).statusCode).toBe(200);
  });
});
