import { z } from 'zod';
import type { BucketedRange } from '../../../../reading/time-range.ts';
import { count } from '../../rows.ts';

/** The Live screen's tiles: activity in a recent range, events per bucket (docs/live.md#the-tiles-liveactivityprojectid-graphql). */
export type RecentActivity = {
  /** Distinct users with any event in the range. */
  users: number;
  /** Distinct wallets any event in the range carried. */
  wallets: number;
  /** bucket index → events with their time in the bucket (rows: BucketValueRow, rows.ts). */
  eventsPerBucket: Map<number, number>;
};

export type RecentActivityQuestion = {
  /** Users, wallets and events per bucket in the range (the Live screen's last 30 minutes). */
  recentActivity(projectId: string, range: BucketedRange): Promise<RecentActivity>;
};

export const ActivityTotalsRow = z.object({ users: count, wallets: count });
