import { z } from 'zod';
import { TEXT_MESSAGE, TEXT_PATTERN } from './text.ts';

/**
 * Annotations (docs/timezone.md, "Annotations"): a dated note on a project's time charts, such as a deploy or a
 * campaign. Dates are calendar dates of the project's time zone; an annotation covers its start date to
 * its end date, both included (a single day without an end).
 */
export const MAX_ANNOTATION_TEXT = 280;
export const MAX_ANNOTATIONS_PER_PROJECT = 1000;

const DATE = /^\d{4}-\d{2}-\d{2}$/;
/** A real calendar date `YYYY-MM-DD` (2024-02-30 is refused), from 1970 to 9999. */
export const CalendarDateSchema = z
  .string()
  .regex(DATE, 'expected a date YYYY-MM-DD')
  .refine((text) => {
    const ms = Date.parse(`${text}T00:00:00Z`);
    return Number.isFinite(ms) && new Date(ms).toISOString().slice(0, 10) === text && text >= '1970-01-01';
  }, 'must be a real calendar date from 1970 on');

/**
 * The days an annotation may cover: from the first day of the accepted client times (no event is older,
 * docs/data-access-and-privacy.md) to a year after today in the project's zone (a planned campaign), so a
 * typo such as 9999-12-31 is refused rather than kept as a flag no chart reaches.
 */
export const EARLIEST_ANNOTATION_DATE = '2015-01-01';

/** The same day a year after `today` (YYYY-MM-DD); 29 February gives 1 March. */
export function latestAnnotationDate(today: string): string {
  const [year = 0, month = 1, day = 1] = today.split('-').map(Number);
  return new Date(Date.UTC(year + 1, month - 1, day)).toISOString().slice(0, 10);
}

/** Why a (valid) calendar date is outside the annotations' days, or undefined when it is inside. */
export function annotationDateProblem(date: string, today: string): string | undefined {
  const latest = latestAnnotationDate(today);
  return date < EARLIEST_ANNOTATION_DATE || date > latest
    ? `must be from ${EARLIEST_ANNOTATION_DATE} to ${latest} (a year after today)`
    : undefined;
}

const AnnotationText = z
  .string()
  .trim()
  .min(1, 'must not be empty')
  .max(MAX_ANNOTATION_TEXT, `must be at most ${MAX_ANNOTATION_TEXT} characters`)
  .regex(TEXT_PATTERN, TEXT_MESSAGE);

const endsAfterStart = (body: { startDate?: string | undefined; endDate?: string | null | undefined }) =>
  !body.startDate || !body.endDate || body.endDate >= body.startDate;
const END_MESSAGE = { message: 'endDate must be on or after startDate', path: ['endDate'] };

export const CreateAnnotationSchema = z
  .strictObject({
    text: AnnotationText,
    startDate: CalendarDateSchema,
    endDate: CalendarDateSchema.nullable().optional(),
  })
  .refine(endsAfterStart, END_MESSAGE);
export type CreateAnnotation = z.infer<typeof CreateAnnotationSchema>;

/** A change: any of the fields; an end date of null removes it. */
export const UpdateAnnotationSchema = z
  .strictObject({
    text: AnnotationText.optional(),
    startDate: CalendarDateSchema.optional(),
    endDate: CalendarDateSchema.nullable().optional(),
  })
  .refine((body) => Object.keys(body).length > 0, {
    message: 'send at least one of text, startDate, endDate',
  })
  .refine(endsAfterStart, END_MESSAGE);
export type UpdateAnnotation = z.infer<typeof UpdateAnnotationSchema>;

export const AnnotationSchema = z.object({
  id: z.string(),
  text: z.string(),
  startDate: z.string(),
  endDate: z.string().nullable(),
  /** The author's email, as the audit log names them. */
  createdBy: z.string(),
  createdAt: z.string(),
});
export type Annotation = z.infer<typeof AnnotationSchema>;

export const AnnotationListSchema = z.object({ annotations: z.array(AnnotationSchema) });
