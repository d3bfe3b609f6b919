import {
  type Annotation,
  annotationDateProblem,
  EARLIEST_ANNOTATION_DATE,
  latestAnnotationDate,
  MAX_ANNOTATION_TEXT,
} from '@polyflow/contracts/annotations';
import { localDate } from '@polyflow/contracts/time-zone';
import { type FormEvent, useRef, useState } from 'react';
import { Button } from '../../../components/ui/button';
import { Card, CardHeader } from '../../../components/ui/card';
import { byId, focusAfterRemoval } from '../../../components/ui/focus-after-removal';
import { Trash2 } from '../../../components/ui/icons';
import { Input } from '../../../components/ui/input';
import { useAnnotations, useCreateAnnotation, useDeleteAnnotation } from '../../../lib/annotations';
import { announce } from '../../../lib/announce';
import { focusFirstInvalid } from '../../../lib/focus-first-invalid';
import { displayTimeZone, formatDate } from '../../../lib/format';

interface AnnotationsCardProps {
  projectId: string;
  onError: (error: Error) => void;
}

const dayOf = (date: string) => formatDate(`${date}T12:00:00Z`, 'UTC');
const datesOf = (annotation: Annotation) =>
  annotation.endDate && annotation.endDate !== annotation.startDate
    ? `${dayOf(annotation.startDate)} – ${dayOf(annotation.endDate)}`
    : dayOf(annotation.startDate);

/**
 * The project's annotations: dated notes (a deploy, a campaign) shown as flags on the time charts. Listed
 * newest first; admins and the owner add and delete them (docs/timezone.md, "Annotations").
 */
export function AnnotationsCard({ projectId, onError }: AnnotationsCardProps) {
  const annotations = useAnnotations(projectId);
  const create = useCreateAnnotation(projectId);
  const remove = useDeleteAnnotation(projectId);
  const today = localDate(Date.now(), displayTimeZone());
  const [text, setText] = useState('');
  const [startDate, setStartDate] = useState(today);
  const [endDate, setEndDate] = useState('');
  const [tried, setTried] = useState(false);
  const trimmed = text.trim();
  const outOfRange = (date: string) => {
    const problem = annotationDateProblem(date, today);
    return problem ? `The date ${problem}.` : undefined;
  };
  // The same rules as the server's (docs/timezone.md#annotations), shown under their fields once adding was tried.
  const errors = {
    text:
      trimmed.length === 0
        ? 'Write a note.'
        : trimmed.length > MAX_ANNOTATION_TEXT
          ? `At most ${MAX_ANNOTATION_TEXT} characters.`
          : undefined,
    startDate: startDate === '' ? 'Pick a date.' : outOfRange(startDate),
    endDate:
      endDate === ''
        ? undefined
        : endDate < startDate
          ? 'The end date is before the start date.'
          : outOfRange(endDate),
  };
  const shown = (field: keyof typeof errors) => (tried ? errors[field] : undefined);

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setTried(true);
    if (errors.text || errors.startDate || errors.endDate) {
      focusFirstInvalid(event.currentTarget);
      return;
    }
    create.mutate(
      { text: trimmed, startDate, endDate: endDate === '' ? null : endDate },
      {
        onSuccess: () => {
          setText('');
          setEndDate('');
          setTried(false);
          announce('Annotation added');
        },
        onError,
      },
    );
  };
  const listed = [...(annotations.data ?? [])].reverse();
  const list = useRef<HTMLUListElement>(null);
  const deleteAnnotation = (annotation: Annotation, index: number) =>
    remove.mutate(annotation.id, {
      onSuccess: () => {
        announce(`Annotation of ${datesOf(annotation)} deleted`);
        // Its Delete button went with the row.
        focusAfterRemoval({
          list: () => list.current,
          removedKey: annotation.id,
          index,
          control: 'button',
          fallback: byId('annotations-empty'),
        });
      },
      onError,
    });

  return (
    <Card aria-labelledby="annotations-title">
      <CardHeader
        titleId="annotations-title"
        eyebrow="Reporting"
        title="Annotations"
        description="Dated notes, such as a deploy or a campaign, shown as flags on the time charts. Dates are days in the project's time zone; a deploy script can post one with a session (see the docs)."
      />
      <form
        onSubmit={onSubmit}
        noValidate
        aria-label="Add an annotation"
        className="mb-4 grid gap-2 sm:grid-cols-2"
      >
        <Input
          label="Note"
          value={text}
          maxLength={MAX_ANNOTATION_TEXT}
          placeholder="Deployed v2.1"
          hint={`${trimmed.length}/${MAX_ANNOTATION_TEXT} characters.`}
          error={shown('text')}
          onChange={(event) => setText(event.target.value)}
          className="sm:col-span-2"
        />
        <Input
          label="Date"
          type="date"
          value={startDate}
          required
          min={EARLIEST_ANNOTATION_DATE}
          max={latestAnnotationDate(today)}
          error={shown('startDate')}
          onChange={(event) => setStartDate(event.target.value)}
        />
        <Input
          label="Until (optional)"
          type="date"
          value={endDate}
          min={startDate || EARLIEST_ANNOTATION_DATE}
          max={latestAnnotationDate(today)}
          error={shown('endDate')}
          onChange={(event) => setEndDate(event.target.value)}
        />
        <div className="sm:col-span-2">
          <Button type="submit" isLoading={create.isPending}>
            Add annotation
          </Button>
        </div>
      </form>
      {annotations.isSuccess && listed.length === 0 && (
        <p id="annotations-empty" className="text-sm text-slate-600">
          No annotations yet.
        </p>
      )}
      {listed.length > 0 && (
        <ul
          ref={list}
          aria-label="Annotations"
          className="flex max-h-72 flex-col divide-y divide-slate-100 overflow-y-auto"
        >
          {listed.map((annotation, index) => (
            <li key={annotation.id} data-item-key={annotation.id} className="flex items-start gap-3 py-2">
              <div className="min-w-0 flex-1">
                <p className="text-xs font-semibold text-amber-900">{datesOf(annotation)}</p>
                <p className="whitespace-pre-line break-words text-sm text-slate-800">{annotation.text}</p>
                <p className="text-xs text-slate-500">by {annotation.createdBy}</p>
              </div>
              <Button
                type="button"
                variant="secondary"
                aria-label={`Delete the annotation of ${datesOf(annotation)}`}
                isLoading={remove.isPending && remove.variables === annotation.id}
                onClick={() => deleteAnnotation(annotation, index)}
              >
                <Trash2 aria-hidden="true" className="size-4" />
              </Button>
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
