import { SessionSchema } from '@polyflow/contracts/auth';
import { describe, expect, it } from 'vitest';
import { apiClient, errorOf } from './support/client.ts';
import { ENGINES, uniqueEmail, useTestApp } from './support/harness.ts';
import { codeFrom } from './support/smtp-sink.ts';

const PASSWORD = 'a long enough password';
const NEW_PASSWORD = 'another long enough password';
const HOUR = 60 * 60 * 1000;

describe.each(ENGINES)('tokens and sessions on %s', (engine) => {
  const t = useTestApp(engine);
  const api = () => apiClient(t.app);
  const isSignedIn = async (token: string) => (await api().get('projects', { token })).statusCode === 200;

  async function verificationCode(email: string) {
    return codeFrom(await t.mail.waitFor(email, { subject: /verify/i }));
  }

  async function login(email: string, password: string) {
    const response = await api().post('login', { body: { email, password } });
    expect(response.statusCode).toBe(200);
    return SessionSchema.parse(response.json()).token;
  }

  it('ends every other verification code once one is used, and every code and session on a reset', async () => {
    const email = uniqueEmail();
    expect((await api().post('register', { body: { email, password: PASSWORD } })).statusCode).toBe(204);
    const v1 = await verificationCode(email);
    expect((await api().post('register/resend', { body: { email } })).statusCode).toBe(204);
    const v2 = await verificationCode(email);

    const verified = await api().post('register/verify', { body: { token: v2 } });
    expect(verified.statusCode).toBe(200);
    const verifySession = SessionSchema.parse(verified.json()).token;
    const loginSession = await login(email, PASSWORD);
    // v1 was never used, but v2's success ended it.
    const stale = await api().post('register/verify', { body: { token: v1 } });
    expect(stale.statusCode).toBe(400);
    expect(errorOf(stale).errorCode).toBe('USER_SECURE_TOKEN_INVALID');

    for (let i = 0; i < 2; i++) {
      expect((await api().post('forgot-password', { body: { email } })).statusCode).toBe(204);
    }
    const r1 = codeFrom(await t.mail.waitFor(email, { subject: /reset/i }));
    const r2 = codeFrom(await t.mail.waitFor(email, { subject: /reset/i }));
    const reset = await api().post('forgot-password/reset', {
      body: { token: r1, newPassword: NEW_PASSWORD },
    });
    expect(reset.statusCode).toBe(204);

    // Every session opened before the reset is over, on the server.
    expect(await isSignedIn(verifySession)).toBe(false);
    expect(await isSignedIn(loginSession)).toBe(false);
    // Every outstanding code is spent: the other reset code, and both verification codes.
    const again = await api().post('forgot-password/reset', { body: { token: r2, newPassword: PASSWORD } });
    expect(again.statusCode).toBe(400);
    for (const token of [v1, v2]) {
      const response = await api().post('register/verify', { body: { token } });
      expect(response.statusCode).toBe(400);
      expect(response.json()).not.toHaveProperty('token');
    }
    expect(await isSignedIn(await login(email, NEW_PASSWORD))).toBe(true);
    expect((await api().post('login', { body: { email, password: PASSWORD } })).statusCode).toBe(401);
  });

  it('ends a reset-before-verification account’s outstanding verification codes too', async () => {
    const email = uniqueEmail();
    await api().post('register', { body: { email, password: PASSWORD } });
    const verify = await verificationCode(email);
    await api().post('forgot-password', { body: { email } });
    const reset = codeFrom(await t.mail.waitFor(email, { subject: /reset/i }));
    await api().post('forgot-password/reset', { body: { token: reset, newPassword: NEW_PASSWORD } });
    expect((await api().post('register/verify', { body: { token: verify } })).statusCode).toBe(400);
  });

  it('logs out on the server: the token stops working at once, other sessions go on', async () => {
    const email = uniqueEmail();
    await api().post('register', { body: { email, password: PASSWORD } });
    await api().post('register/verify', { body: { token: await verificationCode(email) } });
    const laptop = await login(email, PASSWORD);
    const phone = await login(email, PASSWORD);
    expect(await isSignedIn(laptop)).toBe(true);

    const logout = await api().post('logout', { token: laptop });
    expect(logout.statusCode).toBe(204);
    expect(await isSignedIn(laptop)).toBe(false);
    expect(await isSignedIn(phone)).toBe(true);

    // Logging out twice, or without a session, is no error; a logout needs the XSRF header like any write.
    expect((await api().post('logout', { token: laptop })).statusCode).toBe(204);
    expect((await api().post('logout')).statusCode).toBe(204);
    const forged = await api().post('logout', { token: phone, xsrf: false });
    expect(forged.statusCode).toBe(403);
    expect(await isSignedIn(phone)).toBe(true);
  });

  it('refuses a token issued in the future, beyond a minute of clock difference', async () => {
    const email = uniqueEmail();
    await api().post('register', { body: { email, password: PASSWORD } });
    await api().post('register/verify', { body: { token: await verificationCode(email) } });
    t.clock.advance(HOUR);
    const fromTheFuture = await login(email, PASSWORD);
    t.clock.reset();
    t.clock.advance(30_000);
    const slightlyAhead = await login(email, PASSWORD);
    t.clock.reset();
    try {
      expect(await isSignedIn(fromTheFuture)).toBe(false);
      expect(await isSignedIn(slightlyAhead)).toBe(true);
    } finally {
      t.clock.reset();
    }
  });
});
