import type { TransactionDetail } from '@polyflow/contracts/analytics';
import { shortenAddress } from '../../../lib/format';

type Stage = TransactionDetail['stages'][number];

/**
 * Why a stage shows up more than once (docs/analytics.md, "Transactions"): an EIP-5792 batch has a
 * `requested` stage per call, a `confirmed` or `reverted` stage per receipt, and then the batch's own
 * outcome. Each repeated stage gets a note ("Call 1 of 2", "Receipt 0xa1a1…a1a1", "Whole batch"); a
 * transaction whose stages do not repeat gets none.
 */
export function stageNotes(detail: Pick<TransactionDetail, 'stages' | 'receipts'>): {
  notes: (string | null)[];
  calls: number;
} {
  const { stages, receipts } = detail;
  const calls = stages.filter((stage) => stage.stage === 'requested').length;
  const isBatch = calls > 1;
  const counts = new Map<Stage['stage'], number>();
  for (const stage of stages) counts.set(stage.stage, (counts.get(stage.stage) ?? 0) + 1);
  const unmatched = [...receipts];
  const isOutcome = (stage: Stage) =>
    stage.stage === 'confirmed' || stage.stage === 'reverted' || stage.stage === 'failed';
  const lastOutcome = stages.findLastIndex(isOutcome);
  let call = 0;
  const seen = new Map<Stage['stage'], number>();
  const notes = stages.map((stage, index) => {
    const times = seen.get(stage.stage) ?? 0;
    seen.set(stage.stage, times + 1);
    if (stage.stage === 'requested' && isBatch) {
      call += 1;
      return `Call ${call} of ${calls}`;
    }
    if (!isBatch && (counts.get(stage.stage) ?? 0) < 2) return null;
    if (isOutcome(stage)) {
      const at = unmatched.findIndex(
        (receipt) => receipt.status === stage.stage && receipt.time === stage.time,
      );
      if (at >= 0) {
        const [receipt] = unmatched.splice(at, 1);
        return receipt?.hash ? `Receipt ${shortenAddress(receipt.hash)}` : 'Receipt';
      }
      if (isBatch && index === lastOutcome) return 'Whole batch';
    }
    return times > 0 ? 'Reported again' : null;
  });
  return { notes, calls: isBatch ? calls : 1 };
}
