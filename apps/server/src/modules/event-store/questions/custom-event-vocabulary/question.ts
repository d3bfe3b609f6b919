import { z } from 'zod';
import { text } from '../../rows.ts';

/** A project's distinct custom event names and property keys (traits' keys included) as stored. */
export type CustomEventVocabulary = { names: string[]; keys: string[] };

/** What ingestion checks the per-project limits against (docs/custom-events.md#limits). */
export type CustomEventVocabularyQuestion = {
  customEventVocabulary(projectId: string): Promise<CustomEventVocabulary>;
};

export const VocabularyRowSchema = z.object({ kind: text, value: text });

export function vocabularyOf(rows: readonly z.infer<typeof VocabularyRowSchema>[]): CustomEventVocabulary {
  return {
    names: rows.filter((row) => row.kind === 'name').map((row) => row.value),
    keys: rows.filter((row) => row.kind === 'key').map((row) => row.value),
  };
}
