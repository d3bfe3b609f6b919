import { notFound } from '../errors.ts';

/**
 * Who reads a project's dashboards or exports its events: a console session (any project its user
 * owns), or a read token, which reads its one project with its owner's authority and nothing else.
 */
export type Reader = { userId: string; onlyProjectId: string | null };

/**
 * The user whose authority answers a read of `projectId`; the services then check that user owns it.
 * Another project than a read token's looks absent (404), like someone else's project does.
 */
export function readerUserId(reader: Reader, projectId: string): string {
  if (reader.onlyProjectId !== null && reader.onlyProjectId !== projectId) {
    throw notFound('Project not found.');
  }
  return reader.userId;
}
