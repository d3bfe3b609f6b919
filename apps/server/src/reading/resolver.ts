import { z } from 'zod';
import { withGraphqlErrors } from '../graphql/errors.ts';
import type { GraphqlContext } from '../graphql/module.ts';
import type { Actor } from '../lib/access.ts';
import { InputError } from './input-error.ts';
import { readerUserId } from './reader.ts';

/** Arguments every dashboard query takes; times are parsed (and explained) by the services. */
export const text = (max: number) => z.string().max(max);
export const RangeArgs = z.object({ projectId: text(64), from: text(64).nullish(), to: text(64).nullish() });
/** The arguments of a query that can also answer for the previous period (`previous: true`). */
export const ComparableRangeArgs = RangeArgs.extend({ previous: z.boolean().nullish() });

function parseArgs<T>(schema: z.ZodType<T>, args: unknown): T {
  const result = schema.safeParse(args);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const where = issue?.path.length ? `${issue.path.join('.')}: ` : '';
  throw new InputError(`Invalid arguments: ${where}${issue?.message ?? 'invalid'}.`);
}

export type Resolver = (root: unknown, args: unknown, context: GraphqlContext) => Promise<unknown>;

/**
 * A dashboard query resolver: a reader first (a session, or a read token: 401 otherwise), then the
 * arguments, then the service as the user whose authority answers for the project (a read token's
 * owner, for its own project only). Errors get the dashboard's GraphQL codes (graphql/errors.ts). Shared by the analytics, acquisition and
 * incident modules.
 */
export function userQuery<T extends { projectId: string }>(
  schema: z.ZodType<T>,
  run: (userId: string, args: T) => Promise<unknown>,
): Resolver {
  return withGraphqlErrors(async (_root: unknown, args: unknown, context: GraphqlContext) => {
    const reader = await context.requireReader();
    const parsed = parseArgs(schema, args);
    return run(readerUserId(reader, parsed.projectId), parsed);
  });
}

/**
 * A dashboard query resolver that also needs to know who reads: as {@link userQuery}, with the reader
 * (a read token has `onlyProjectId`; it is no person).
 */
export function readerQuery<T extends { projectId: string }>(
  schema: z.ZodType<T>,
  run: (reader: { userId: string; isToken: boolean }, args: T) => Promise<unknown>,
): Resolver {
  return withGraphqlErrors(async (_root: unknown, args: unknown, context: GraphqlContext) => {
    const reader = await context.requireReader();
    const parsed = parseArgs(schema, args);
    const userId = readerUserId(reader, parsed.projectId);
    return run({ userId, isToken: reader.onlyProjectId !== null }, parsed);
  });
}

/**
 * A mutation resolver: a console session only (a read token gets 403 FORBIDDEN), then the arguments;
 * the service gets the actor (user and client address) for its role check and the audit log.
 */
export function userMutation<T>(
  schema: z.ZodType<T>,
  run: (actor: Actor, args: T) => Promise<unknown>,
): Resolver {
  return withGraphqlErrors(async (_root: unknown, args: unknown, context: GraphqlContext) => {
    const user = await context.requireUser();
    return run({ id: user.id, email: user.email, ip: context.request.ip }, parseArgs(schema, args));
  });
}
