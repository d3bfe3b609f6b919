import type { FastifyServerOptions } from 'fastify';

/**
 * Pino options. Credentials never reach the log: auth headers, cookies, API keys and any body field
 * that could hold a password or token are censored wherever they appear.
 */
export function loggerOptions(
  level: string,
  stream?: { write(line: string): void },
): NonNullable<FastifyServerOptions['logger']> {
  return {
    level,
    ...(stream && { stream }),
    redact: {
      paths: [
        'req.headers.authorization',
        'req.headers.cookie',
        'req.headers["x-api-key"]',
        'req.headers["x-xsrf-token"]',
        'res.headers["set-cookie"]',
        '*.password',
        '*.newPassword',
        '*.token',
        '*.apiKey',
        '*.api_key',
        '*.password_hash',
      ],
      censor: '[redacted]',
    },
    serializers: {
      // Query strings can carry a key or token (e.g. /verify?token=); log the path only.
      req(request) {
        return {
          id: request.id,
          method: request.method,
          url: String(request.url ?? '').split('?', 1)[0],
          remoteAddress: request.ip,
        };
      },
    },
  };
}
