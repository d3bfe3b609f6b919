import { TransactionStatuses } from '@polyflow/contracts/analytics';
import { InputError } from '../../reading/input-error.ts';
import type { HistoryFilter } from '../event-store/analytics-questions.ts';

/** The history's search and filters as callers give them (GraphQL arguments, the CSV's query). */
export type HistoryFilterInput = {
  search?: string | null;
  status?: string | null;
  type?: string | null;
  contract?: string | null;
  selector?: string | null;
};

/** At least this many hex digits in a search: fewer would match a good share of every project. */
export const MIN_SEARCH_DIGITS = 6;

const HEX_SEARCH = /^(?:0x)?([0-9a-f]+)$/i;

/**
 * Checks the history's filter and writes it as the store holds it (lower case, `0x` first); a blank
 * part is no filter. Bad input is an InputError (400, GraphQL BAD_USER_INPUT) that says what to send.
 */
export function parseHistoryFilter(input: HistoryFilterInput): HistoryFilter {
  const blank = (value: string | null | undefined) => (value ?? '').trim();
  const filter: HistoryFilter = {};
  const search = blank(input.search);
  if (search) {
    const digits = HEX_SEARCH.exec(search)?.[1];
    if (!digits || digits.length < MIN_SEARCH_DIGITS || digits.length > 64)
      throw new InputError(
        `Invalid search: a transaction hash or wallet address, or its first ${MIN_SEARCH_DIGITS} or more hex digits (0x optional).`,
      );
    filter.search = `0x${digits.toLowerCase()}`;
  }
  const status = blank(input.status);
  if (status) {
    if (!(TransactionStatuses as readonly string[]).includes(status))
      throw new InputError(`Invalid status: one of ${TransactionStatuses.join(', ')}.`);
    filter.status = status;
  }
  const type = blank(input.type);
  if (type) {
    if (type !== 'Coin' && type !== 'Contract') throw new InputError('Invalid type: Coin or Contract.');
    filter.kind = type === 'Coin' ? 'coin' : 'contract';
  }
  const contract = blank(input.contract);
  if (contract) {
    if (!/^0x[0-9a-f]{40}$/i.test(contract))
      throw new InputError('Invalid contract: a contract address, 0x and 40 hex digits.');
    filter.contract = contract.toLowerCase();
  }
  const selector = blank(input.selector);
  if (selector) {
    if (!/^0x[0-9a-f]{8}$/i.test(selector))
      throw new InputError('Invalid selector: a function selector, 0x and 8 hex digits (e.g. 0xa9059cbb).');
    filter.selector = selector.toLowerCase();
  }
  return filter;
}
