import { ProjectListSchema } from '@polyflow/contracts/projects';
import { describe, expect, it } from 'vitest';
import { buildSession, logIn } from '../testing/fixtures';
import { apiError, json, mockApi } from '../testing/mock-api';
import { ApiError, apiRequest } from './api-client';
import { USER_KEY } from './storage';

describe('apiRequest', () => {
  it("fails with 'Not logged in' for an authenticated call without a stored user, sending nothing", async () => {
    const api = mockApi({});
    await expect(apiRequest('/projects', { auth: true })).rejects.toMatchObject({ message: 'Not logged in' });
    expect(api.requests).toHaveLength(0);
  });

  it('sends the bearer token, and the XSRF cookie as a header on non-GET requests only', async () => {
    const session = logIn();
    // biome-ignore lint/suspicious/noDocumentCookie: the XSRF cookie is what the console reads.
    document.cookie = 'XSRF-TOKEN=token%3Dvalue; path=/';
    const api = mockApi({
      'GET /projects': json(200, { projects: [] }),
      'POST /projects/p1/api-key': json(204),
    });
    await apiRequest('/projects', { auth: true, schema: ProjectListSchema });
    await apiRequest('/projects/p1/api-key', { method: 'POST', auth: true });

    const [get, post] = api.requests;
    expect(get?.headers.get('Authorization')).toBe(`Bearer ${session.token}`);
    expect(get?.headers.get('X-XSRF-TOKEN')).toBeNull();
    expect(post?.headers.get('X-XSRF-TOKEN')).toBe('token=value');
  });

  it('parses {errorCode, message} into an ApiError whose JSON keeps the message', async () => {
    mockApi({ 'POST /login': apiError(400, 'INVALID_REQUEST_BODY', 'email: Invalid email') });
    const error = await apiRequest('/login', { method: 'POST', body: {} }).catch(
      (failure: unknown) => failure,
    );
    expect(error).toBeInstanceOf(ApiError);
    expect(JSON.parse(JSON.stringify(error))).toMatchObject({
      errorCode: 'INVALID_REQUEST_BODY',
      message: 'email: Invalid email',
      status: 400,
    });
  });

  it('ends the session on a 401 to an authenticated call, not on a failed login', async () => {
    logIn();
    mockApi({
      'POST /login': apiError(401, 'BAD_AUTHENTICATION', 'Wrong email or password.'),
      'GET /projects': apiError(401, 'BAD_AUTHENTICATION', 'Token expired.'),
    });
    await expect(apiRequest('/login', { method: 'POST', body: {} })).rejects.toThrow(
      'Wrong email or password.',
    );
    expect(window.localStorage.getItem(USER_KEY)).not.toBeNull();
    await expect(apiRequest('/projects', { auth: true })).rejects.toThrow('Token expired.');
    expect(window.localStorage.getItem(USER_KEY)).toBeNull();
  });

  it('rejects an answer that does not match the contract', async () => {
    logIn(buildSession());
    mockApi({ 'GET /projects': json(200, { projects: [{ id: 1 }] }) });
    await expect(apiRequest('/projects', { auth: true, schema: ProjectListSchema })).rejects.toMatchObject({
      errorCode: 'INVALID_RESPONSE',
    });
  });

  it('reports a network failure in plain words', async () => {
    mockApi({ 'GET /health': 'network-error' });
    await expect(apiRequest('/health')).rejects.toMatchObject({ errorCode: 'NETWORK_ERROR' });
  });
});
