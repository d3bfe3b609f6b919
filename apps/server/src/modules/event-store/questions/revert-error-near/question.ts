import { z } from 'zod';
import { textOrNull } from '../../rows.ts';

/**
 * The message of the latest wallet error about a revert in the transaction's session, from
 * REVERT_ERROR_WINDOW (domain.ts) before its request to after its outcome: the reason the contract gave
 * (docs/analytics.md#transaction-history-and-a-single-transaction).
 */
export type RevertErrorNearQuestion = {
  revertErrorNear(
    projectId: string,
    around: { sessionId: string; fromMs: number; toMs: number },
  ): Promise<string | null>;
};

export const MessageRow = z.object({ error_message: textOrNull });
