import { describe, expect, it } from 'vitest';
import { TypedDocumentString } from '../gql/graphql';
import { buildSession, logIn } from '../testing/fixtures';
import { json, mockApi } from '../testing/mock-api';
import { isApiError } from './api-client';
import { graphqlRequest } from './graphql-client';
import { USER_KEY } from './storage';

// A document as codegen writes it for `graphql(...)`: the query text with its result and variables types.
const QUERY = new TypedDocumentString<{ answer: number }, { a?: number }>('query Q { answer }');

describe('graphqlRequest', () => {
  it('posts the document and variables with the Bearer token and the API-key header', async () => {
    const session = logIn();
    // biome-ignore lint/suspicious/noDocumentCookie: the XSRF cookie is what the console reads.
    document.cookie = 'XSRF-TOKEN=xsrf-1';
    const api = mockApi({ 'POST /api/graphql': json(200, { data: { answer: 42 } }) });
    await expect(graphqlRequest(QUERY, { variables: { a: 1 } })).resolves.toEqual({
      answer: 42,
    });
    const [request] = api.requests;
    expect(request?.body).toEqual({ query: 'query Q { answer }', variables: { a: 1 } });
    expect(request?.headers.get('Authorization')).toBe(`Bearer ${session.token}`);
    expect(request?.headers.get('X-API-KEY')).toBe(session.token);
    expect(request?.headers.get('X-XSRF-TOKEN')).toBe('xsrf-1');
  });

  it('turns the first GraphQL error into an ApiError with its code', async () => {
    logIn();
    mockApi({
      'POST /api/graphql': json(400, {
        data: null,
        errors: [
          {
            message: 'Project not found.',
            extensions: { code: 'NOT_FOUND', errorCode: 'RESOURCE_NOT_FOUND', status: 404 },
          },
        ],
      }),
    });
    const error = await graphqlRequest(QUERY, { variables: {} }).catch((caught: unknown) => caught);
    expect(isApiError(error) && error.errorCode).toBe('RESOURCE_NOT_FOUND');
    expect(isApiError(error) && error.message).toBe('Project not found.');
    expect(window.localStorage.getItem(USER_KEY)).not.toBeNull();
  });

  it('ends the session on an authentication error', async () => {
    logIn();
    mockApi({
      'POST /api/graphql': json(400, {
        data: null,
        errors: [{ message: 'Session expired.', extensions: { code: 'BAD_AUTHENTICATION', status: 401 } }],
      }),
    });
    await expect(graphqlRequest(QUERY, { variables: {} })).rejects.toThrow('Session expired.');
    expect(window.localStorage.getItem(USER_KEY)).toBeNull();
  });

  it('refuses an answer without data and works only when signed in', async () => {
    logIn();
    mockApi({ 'POST /api/graphql': json(200, { data: null }) });
    await expect(graphqlRequest(QUERY, { variables: {} })).rejects.toThrow('does not understand');
    window.localStorage.setItem(
      USER_KEY,
      JSON.stringify(buildSession({ validUntil: '2000-01-01T00:00:00.000Z' })),
    );
    await expect(graphqlRequest(QUERY, { variables: {} })).rejects.toThrow('Not logged in');
  });
});
