import { createHmac, timingSafeEqual } from 'node:crypto';
import type { ReportKind } from '@polyflow/contracts/reports';
import { isId } from '../../lib/ids.ts';

/**
 * The unsubscribe link's token (docs/reports.md): which subscription it turns off, signed with an
 * HMAC-SHA256 under the server's JWT secret, so it needs no stored state and works without logging in.
 * It turns off one kind of report of one member for one project, nothing else; it does not expire (an
 * old report's link still works), and a changed JWT secret retires every link sent before.
 */
export type UnsubscribeTarget = { projectId: string; userId: string; kind: ReportKind };

const VERSION = 'r1';
const KIND_CODES: Record<ReportKind, string> = { weekly: 'w', monthly: 'm' };
const MAX_TOKEN_LENGTH = 200;

function signature(secret: string, payload: string): Buffer {
  return createHmac('sha256', secret).update(`polyflow-report-unsubscribe.${payload}`).digest();
}

export function unsubscribeToken(secret: string, { projectId, userId, kind }: UnsubscribeTarget): string {
  const payload = `${VERSION}.${projectId}.${userId}.${KIND_CODES[kind]}`;
  return `${payload}.${signature(secret, payload).toString('base64url')}`;
}

/** The subscription a token names, or null for anything not signed by this server. */
export function readUnsubscribeToken(secret: string, token: unknown): UnsubscribeTarget | null {
  if (typeof token !== 'string' || token.length > MAX_TOKEN_LENGTH) return null;
  const parts = token.split('.');
  if (parts.length !== 5) return null;
  const [version, projectId, userId, code, signed] = parts as [string, string, string, string, string];
  const kind = (Object.keys(KIND_CODES) as ReportKind[]).find((known) => KIND_CODES[known] === code);
  if (version !== VERSION || !kind || !isId(projectId) || !isId(userId)) return null;
  // Compared as text: one spelling per signature (base64url decoding would accept variants).
  const given = Buffer.from(signed);
  const expected = Buffer.from(
    signature(secret, `${version}.${projectId}.${userId}.${code}`).toString('base64url'),
  );
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  return { projectId, userId, kind };
}
