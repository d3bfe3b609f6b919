import {
  CredentialsSchema,
  EmailOnlySchema,
  EmailSchema,
  ResetPasswordSchema,
  TokenOnlySchema,
} from '@polyflow/contracts/auth';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { RateLimitConfig } from '../../config.ts';
import { CONSOLE_BODY_LIMIT, NoBodySchema, parseBody } from '../../http/validation.ts';
import { bearerToken } from './guard.ts';
import type { AuthService } from './service.ts';

type Options = { auth: AuthService; rateLimit: RateLimitConfig };

// Unknown fields are refused rather than ignored: a client sending them is out of date or probing.
const RegisterBody = CredentialsSchema.strict();
// Login checks the password, not its policy: a too-short one is simply wrong (401), like any other.
const LoginBody = z.strictObject({ email: EmailSchema, password: z.string().min(1).max(256) });
const EmailBody = EmailOnlySchema.strict();
const TokenBody = TokenOnlySchema.strict();
const ResetBody = ResetPasswordSchema.strict();

/** Account routes under /api/v1: register, verify, resend, login, logout, forgot-password, reset. */
export async function authRoutes(app: FastifyInstance, { auth, rateLimit }: Options): Promise<void> {
  const limited = {
    bodyLimit: CONSOLE_BODY_LIMIT,
    config: { rateLimit: { max: rateLimit.max, timeWindow: rateLimit.windowMs } },
  };

  app.post('/register', limited, async (request, reply) => {
    await auth.register(parseBody(RegisterBody, request.body));
    return reply.status(204).send();
  });

  app.post('/register/verify', limited, async (request) => {
    const { token } = parseBody(TokenBody, request.body);
    return auth.verifyEmail(token);
  });

  app.post('/register/resend', limited, async (request, reply) => {
    const { email } = parseBody(EmailBody, request.body);
    await auth.resendVerification(email);
    return reply.status(204).send();
  });

  app.post('/login', limited, async (request) => auth.login(parseBody(LoginBody, request.body)));

  // Ends the caller's session on the server. Answers 204 whether or not the token was still valid:
  // after it, the token does not work, which is all a client logging out needs to know.
  app.post('/logout', { bodyLimit: CONSOLE_BODY_LIMIT }, async (request, reply) => {
    parseBody(NoBodySchema, request.body);
    const token = bearerToken(request);
    if (token) await auth.logout(token);
    return reply.status(204).send();
  });

  app.post('/forgot-password', limited, async (request, reply) => {
    const { email } = parseBody(EmailBody, request.body);
    await auth.forgotPassword(email);
    return reply.status(204).send();
  });

  app.post('/forgot-password/reset', limited, async (request, reply) => {
    const { token, newPassword } = parseBody(ResetBody, request.body);
    await auth.resetPassword(token, newPassword);
    return reply.status(204).send();
  });
}
