import { randomUUID } from 'node:crypto';
import type { AlertNotice } from '../../src/modules/alert-rules/notice.ts';
import type { TestBuildOptions } from '../support/harness.ts';

/**
 * The channels as the rules see them, for tests until the channels module is composed: a recording sink
 * for `notify` and a directory of the channels each project has.
 */
export function recordingChannels() {
  const notices: { notice: AlertNotice; channelIds: readonly string[] }[] = [];
  const byProject = new Map<string, Set<string>>();
  const failing = new Map<string, number>();
  const options: TestBuildOptions = {
    alertChannels: {
      notify: async (notice, channelIds) => {
        const left = failing.get(notice.project.id) ?? 0;
        if (left > 0) {
          failing.set(notice.project.id, left - 1);
          throw new Error('the channels are down');
        }
        notices.push({ notice, channelIds });
      },
      directory: {
        channelIdsOf: async (projectId, ids) => ids.filter((id) => byProject.get(projectId)?.has(id)),
      },
    },
  };
  return {
    options,
    notices,
    /** A new channel of the project; its id. */
    addChannel(projectId: string): string {
      const id = randomUUID();
      byProject.set(projectId, new Set([...(byProject.get(projectId) ?? []), id]));
      return id;
    },
    /** The project's next `count` notices fail to be handed over. */
    failNotices(projectId: string, count: number) {
      failing.set(projectId, count);
    },
    /** The notices recorded since the last call. */
    take() {
      return notices.splice(0, notices.length);
    },
  };
}
