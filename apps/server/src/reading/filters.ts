import type { z } from 'zod';
import { InputError } from './input-error.ts';

/**
 * A dashboard's filters argument parsed with its contract schema (AcquisitionFiltersSchema,
 * AnalyticsFiltersSchema). GraphQL hands absent lists over as null; the contracts want them absent. A
 * refused list is an InputError (BAD_USER_INPUT) naming it.
 */
export function parseFilters<T>(schema: z.ZodType<T>, input: unknown): T {
  const present =
    input == null
      ? {}
      : Object.fromEntries(Object.entries(input as object).filter(([, value]) => value != null));
  const parsed = schema.safeParse(present);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new InputError(`Invalid filters: ${issue?.path.join('.') ?? ''} ${issue?.message ?? ''}`.trim());
  }
  return parsed.data;
}
