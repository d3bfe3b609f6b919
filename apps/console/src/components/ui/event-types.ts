/**
 * Event types in words, for every screen that names an event (the wallet's sessions, an incident's trail, the
 * Live stream, the SDK screen's last event seen): never the raw code (`page_view`, `custom`). Where a custom
 * event's name is known, the screen adds it: "Custom event swap_clicked".
 */
const LABELS: Record<string, string> = {
  page_view: 'Page view',
  wallet_detected: 'Wallet detected',
  wallet_connected: 'Wallet connected',
  wallet_disconnected: 'Wallet disconnected',
  chain_changed: 'Network changed',
  tx: 'Transaction',
  signature: 'Signature',
  error: 'Error',
  custom: 'Custom event',
  identify: 'User identified',
};

/** "Page view", "Custom event"; a type this list does not know yet: its code in words ("new_type" → "New type"). */
export function eventTypeLabel(type: string): string {
  const known = LABELS[type];
  if (known) return known;
  const words = type.replace(/_/g, ' ').trim();
  return words ? words.charAt(0).toUpperCase() + words.slice(1) : 'Event';
}
