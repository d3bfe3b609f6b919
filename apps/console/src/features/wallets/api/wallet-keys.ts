import type { AnalyticsFilters } from '@polyflow/contracts/analytics';
import { type LifecycleStageName, LifecycleStages } from '@polyflow/contracts/wallets';
import { ApiError } from '../../../lib/api-client';

/**
 * The range the wallet cards and the list are asked for: the project and a resolved period; on the Analytics
 * screen, the cards also take its filters (docs/wallets.md, "With the Analytics filters").
 */
export interface WalletRange {
  projectId: string;
  from: string;
  to: string;
  filters?: AnalyticsFilters;
}

/** Query keys start with the project id, so choosing another project asks everything again. */
export const walletKeys = {
  of: (name: string, projectId: string, extra: Record<string, unknown> = {}) =>
    ['projects', projectId, 'wallets', name, extra] as const,
};

/**
 * A wallet's lifecycle stage as the screens name it. The schema types `stage` as a String (one of
 * LifecycleStages, docs/wallets.md); another value is an answer the console does not understand, as a
 * field of the wrong type would be.
 */
export function toStage(stage: string): LifecycleStageName;
export function toStage(stage: string | null): LifecycleStageName | null;
export function toStage(stage: string | null): LifecycleStageName | null {
  if (stage === null) return null;
  const known = LifecycleStages.find((name) => name === stage);
  if (known) return known;
  throw new ApiError('INVALID_RESPONSE', 'The server sent an answer the console does not understand.', 0);
}
