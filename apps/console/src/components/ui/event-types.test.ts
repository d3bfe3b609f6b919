import { describe, expect, it } from 'vitest';
import { eventTypeLabel } from './event-types';

describe('eventTypeLabel', () => {
  it('names every event type in words, a custom event included', () => {
    expect(eventTypeLabel('page_view')).toBe('Page view');
    expect(eventTypeLabel('wallet_detected')).toBe('Wallet detected');
    expect(eventTypeLabel('chain_changed')).toBe('Network changed');
    expect(eventTypeLabel('tx')).toBe('Transaction');
    expect(eventTypeLabel('custom')).toBe('Custom event');
    expect(eventTypeLabel('identify')).toBe('User identified');
  });

  it('puts a type it does not know into words', () => {
    expect(eventTypeLabel('session_replay')).toBe('Session replay');
    expect(eventTypeLabel('')).toBe('Event');
  });
});
