import type { EventRow } from '../event-store/event-row.ts';
import { createLiveFeed, type LiveFeed, type LiveFeedOptions } from './feed.ts';

export type LiveDeps = {
  options?: LiveFeedOptions;
  /** The ingestion log (modules/ingest-log): hands each commit's new events to one subscriber. */
  log: {
    onCommitted(subscriber: {
      isWatched(projectId: string): boolean;
      publish(projectId: string, rows: readonly EventRow[]): void;
    }): void;
  };
  /** A deleted project's streams close at once (`ACCESS_ENDED`). */
  projects: {
    onProjectChanged(listener: (projectId: string, change: 'updated' | 'deleted') => void): () => void;
  };
  /** A session ended on this node (Log Out, password reset) closes its streams at once (`SESSION_ENDED`). */
  sessions: { onEnded(listener: (ended: { userId: string; sessionId?: string }) => void): void };
};

/**
 * The live streams (docs/live.md): the feed, subscribed to what ends or feeds a stream. Built with the
 * ingestion log, the project access and the sessions, none of which knows it (ADR 075); the members service
 * is built with it (a removed member's streams close: `closeStreamsOf`).
 */
export function createLive({ options, log, projects, sessions }: LiveDeps): LiveFeed {
  const feed = createLiveFeed(options);
  log.onCommitted(feed);
  projects.onProjectChanged((projectId, change) => {
    if (change === 'deleted') feed.closeProjectStreams(projectId);
  });
  sessions.onEnded((ended) => feed.endSessions(ended));
  return feed;
}
