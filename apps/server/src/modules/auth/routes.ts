import {
  CredentialsSchema,
  EmailOnlySchema,
  EmailSchema,
  ResetPasswordSchema,
  SessionSchema,
  VerifyEmailSchema,
} from '@polyflow/contracts/auth';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { RateLimitConfig } from '../../config.ts';
import type { RouteDocs } from '../../http/openapi.ts';
import { CONSOLE_BODY_LIMIT, NoBodySchema, parseBody } from '../../http/validation.ts';
import { bearerToken } from './guard.ts';
import type { AuthService } from './service.ts';

type Options = { auth: AuthService; rateLimit: RateLimitConfig };

// Unknown fields are refused rather than ignored: a client sending them is out of date or probing.
const RegisterBody = CredentialsSchema.strict();
// Login checks the password, not its policy: a too-short one is simply wrong (401), like any other.
const LoginBody = z.strictObject({ email: EmailSchema, password: z.string().min(1).max(256) });
const EmailBody = EmailOnlySchema.strict();
const ResetBody = ResetPasswordSchema.strict();

/** Account routes under /api/v1: register, verify, resend, login, logout, forgot-password, reset. */
export async function authRoutes(app: FastifyInstance, { auth, rateLimit }: Options): Promise<void> {
  const rateLimited = { max: rateLimit.max, timeWindow: rateLimit.windowMs };
  // Rate limited per client IP (AUTH_RATE_LIMIT_MAX per AUTH_RATE_LIMIT_WINDOW_MS), documented as `docs`.
  const limited = (docs: Omit<RouteDocs, 'tag' | 'auth'>) => ({
    bodyLimit: CONSOLE_BODY_LIMIT,
    config: { rateLimit: rateLimited, docs: { tag: 'Accounts', auth: 'none' as const, ...docs } },
  });
  const noContent = (description: string) => ({ 204: { description } });

  app.post(
    '/register',
    limited({
      summary: 'Create an account',
      description:
        'Sends a verification email (a link and a short code). The answer is the same for an address already registered.',
      body: RegisterBody,
      responses: noContent('Account created; the verification email is on its way.'),
    }),
    async (request, reply) => {
      await auth.register(parseBody(RegisterBody, request.body));
      return reply.status(204).send();
    },
  );

  app.post(
    '/register/verify',
    limited({
      summary: 'Verify an email address',
      description: "With the link's token, or with the email address and the short code (`ABCD-EFGH`).",
      body: VerifyEmailSchema,
      responses: { 200: { description: 'Verified: a session.', schema: SessionSchema } },
    }),
    async (request) => {
      return auth.verifyEmail(parseBody(VerifyEmailSchema, request.body));
    },
  );

  app.post(
    '/register/resend',
    limited({
      summary: 'Send the verification email again',
      body: EmailBody,
      responses: noContent(
        'Sent when the account exists and is not verified (the answer does not say which).',
      ),
    }),
    async (request, reply) => {
      const { email } = parseBody(EmailBody, request.body);
      await auth.resendVerification(email);
      return reply.status(204).send();
    },
  );

  app.post(
    '/login',
    limited({
      summary: 'Log in',
      body: LoginBody,
      responses: {
        200: { description: 'A session token for `Authorization: Bearer`.', schema: SessionSchema },
      },
    }),
    async (request) => auth.login(parseBody(LoginBody, request.body)),
  );

  // Ends the caller's session on the server. Answers 204 whether or not the token was still valid:
  // after it, the token does not work, which is all a client logging out needs to know.
  app.post(
    '/logout',
    {
      bodyLimit: CONSOLE_BODY_LIMIT,
      config: {
        docs: {
          summary: 'Log out: end this session on the server',
          tag: 'Accounts',
          auth: 'session',
          body: NoBodySchema,
          responses: noContent('The token no longer works (also when it had expired already).'),
        },
      },
    },
    async (request, reply) => {
      parseBody(NoBodySchema, request.body);
      const token = bearerToken(request);
      if (token) await auth.logout(token);
      return reply.status(204).send();
    },
  );

  app.post(
    '/forgot-password',
    limited({
      summary: 'Email a password-reset link',
      body: EmailBody,
      responses: noContent('Sent when the account exists (the answer does not say whether it does).'),
    }),
    async (request, reply) => {
      const { email } = parseBody(EmailBody, request.body);
      await auth.forgotPassword(email);
      return reply.status(204).send();
    },
  );

  app.post(
    '/forgot-password/reset',
    limited({
      summary: "Set a new password with the reset link's token",
      description: 'Ends every session of the account.',
      body: ResetBody,
      responses: noContent('Password changed.'),
    }),
    async (request, reply) => {
      const { token, newPassword } = parseBody(ResetBody, request.body);
      await auth.resetPassword(token, newPassword);
      return reply.status(204).send();
    },
  );
}
