import type { FieldIssue } from '@polyflow/contracts/errors';
import { z } from 'zod';
import { badRequest } from '../errors.ts';

/** Console routes accept small JSON bodies only. */
export const CONSOLE_BODY_LIMIT = 16 * 1024;

/** Each issue's field as a dotted path; an unknown key is named under its object (`params.foo`). */
function issuesOf(error: z.ZodError): FieldIssue[] {
  return error.issues.map((issue) => {
    const path = issue.path.map(String);
    return {
      path:
        issue.code === 'unrecognized_keys'
          ? issue.keys.map((key) => [...path, key].join('.')).join(',')
          : path.join('.'),
      message: issue.message,
    };
  });
}

/** Parses a request body with a contract schema; failures become 400 INVALID_REQUEST_BODY with details. */
export function parseBody<T extends z.ZodType>(schema: T, body: unknown): z.infer<T> {
  const result = schema.safeParse(body);
  if (!result.success) throw badRequest('Invalid request body.', issuesOf(result.error));
  return result.data;
}

/** Routes that act on the URL alone take no body, or an empty object (some clients always send one). */
export const NoBodySchema = z.strictObject({}).optional();
