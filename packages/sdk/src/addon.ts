/**
 * The SDK's add-on (ADR 068), loaded on first need so that the core stays within its size budget: `track`
 * and `identify` (checked here, then handed to the core's `emit`) and the lifecycle of a submitted
 * transaction (`follow`: receipt, replaced, dropped). A dapp that neither tracks nor sends a transaction never
 * loads it. Built on its own (build.mjs): it carries its own copies of the helpers it uses.
 */
import type { EventBody } from './types.ts';

import { isLabel } from './util.ts';

export { follow } from './transactions.ts';

/** A custom event's name or an identify's user id, with its properties or traits. */
export type RecordCall = (
  emit: (body: EventBody) => void,
  type: 'custom' | 'identify',
  value: unknown,
  props?: unknown,
) => void;

/**
 * Emits the event with a copy of the properties (the dapp may change its object later), or drops the call
 * with one console warning: a name or key of 1–64 characters, a plain object of at most 20 values, each a
 * string of at most 256 characters, a finite number or a boolean. Never throws.
 */
export const record: RecordCall = (emit, type, value, props = {}) => {
  try {
    const entries = Object.entries(props as object);
    if (
      isLabel(value) &&
      (props as object).constructor === Object &&
      entries.length <= 20 &&
      entries.every(
        ([key, v]) =>
          isLabel(key) &&
          key !== '__proto__' &&
          (typeof v === 'number'
            ? Number.isFinite(v)
            : typeof v === 'boolean' || v === '' || isLabel(v, 256)),
      )
    ) {
      const copy = { ...(props as { [key: string]: string | number | boolean }) };
      return emit(
        type === 'custom' ? { type, name: value, props: copy } : { type, appUserId: value, traits: copy },
      );
    }
  } catch {}
  console.warn(`[polyflow] ${type === 'custom' ? 'track' : 'identify'} dropped: invalid input`, value);
};
