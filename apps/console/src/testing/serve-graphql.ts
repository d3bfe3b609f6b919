import type { Project } from '@polyflow/contracts/projects';
import { json, mockApi, type RecordedRequest, type Reply } from './mock-api';

/** A GraphQL request as the server sees it: its root field, its variables and its headers. */
export interface GraphqlCall {
  field: string;
  variables: Record<string, unknown>;
  headers: Headers;
}

export type Answer = Reply | ((variables: Record<string, unknown>) => Reply | Promise<Reply>);

/** `data` of a successful answer. */
export const data = (value: Record<string, unknown>): Reply => json(200, { data: value });
/** A GraphQL error answer, as the server's errorFormatter writes it. */
export const graphqlError = (message: string, code = 'BAD_USER_INPUT', status = 400): Reply =>
  json(400, { data: null, errors: [{ message, extensions: { code, status } }] });

/** The root field the operation asks (each api/ file's operation asks one: `analyticsOverview`, `incidents`…). */
function rootFieldOf(request: RecordedRequest): string {
  const query = (request.body as { query?: string } | undefined)?.query ?? '';
  return /\{\s*(\w+)/.exec(query)?.[1] ?? 'unknown';
}

/**
 * The console tests' one GraphQL mock: replaces `fetch` with the projects list (REST) and GraphQL answers
 * by root field (`analyticsOverview`, `incidents`, `setIncidentStatus`…). A field without an answer gets a
 * GraphQL validation error.
 * Answers that every test of a screen shares (features' testing/ folders) are spread in first.
 */
export function serveGraphql(
  projects: Project[],
  answers: Record<string, Answer> = {},
  /** Other REST routes the screen reads (`GET /projects/:id/members`…), by "METHOD /path". */
  rest: Parameters<typeof mockApi>[0] = {},
) {
  const calls: GraphqlCall[] = [];
  mockApi({
    ...rest,
    'GET /projects': json(200, { projects }),
    'POST /api/graphql': async (request) => {
      const field = rootFieldOf(request);
      const variables = (request.body as { variables?: Record<string, unknown> }).variables ?? {};
      calls.push({ field, variables, headers: request.headers });
      const answer = answers[field];
      if (answer === undefined) return graphqlError(`No answer for ${field}`, 'GRAPHQL_VALIDATION_FAILED');
      return typeof answer === 'function' ? answer(variables) : answer;
    },
  });
  const callsOf = (field: string) => calls.filter((call) => call.field === field);
  /** The calls for the period on screen, without the previous period's (`previous: true`). */
  const currentCallsOf = (field: string) => callsOf(field).filter((call) => call.variables.previous !== true);
  return {
    calls,
    callsOf,
    currentCallsOf,
    lastCallOf: (field: string) => callsOf(field).at(-1),
    lastCurrentCallOf: (field: string) => currentCallsOf(field).at(-1),
  };
}
