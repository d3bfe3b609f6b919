import type { AlertChannel, AlertDelivery as Delivery } from '@polyflow/contracts/alert-channels';
import type { AlertRule, AlertFiring as Firing } from '@polyflow/contracts/alert-rules';
import type { ReportSubscription } from '@polyflow/contracts/reports';

/** Ids as the server makes them (uuids: the contracts check them). */
export const IDS = {
  rule: '0b8c6f3e-1d2a-4c5b-9e8f-000000000001',
  channel: '0b8c6f3e-1d2a-4c5b-9e8f-0000000000c1',
  otherChannel: '0b8c6f3e-1d2a-4c5b-9e8f-0000000000c9',
  firing: '0b8c6f3e-1d2a-4c5b-9e8f-0000000000f1',
  laterFiring: '0b8c6f3e-1d2a-4c5b-9e8f-0000000000f2',
} as const;

/** Answers of the alert routes as the server gives them (docs/alerts.md), with overridable fields. */

export function buildRule(overrides: Partial<AlertRule> = {}): AlertRule {
  return {
    id: IDS.rule,
    name: 'Checkout failing',
    kind: 'tx_fail_rate',
    params: { windowMinutes: 60, thresholdPercent: 10, minTransactions: 20 },
    channelIds: [],
    cooldownMinutes: 60,
    paused: false,
    state: 'ok',
    lastFiredAt: null,
    createdAt: '2026-11-20T10:00:00.000Z',
    updatedAt: '2026-11-20T10:00:00.000Z',
    ...overrides,
  };
}

export function buildChannel(overrides: Partial<AlertChannel> = {}): AlertChannel {
  return {
    id: IDS.channel,
    type: 'webhook',
    name: 'Ops webhook',
    url: 'https://hooks.example.com/polyflow',
    memberIds: [],
    createdAt: '2026-11-20T10:00:00.000Z',
    ...overrides,
  };
}

export function buildFiring(overrides: Partial<Firing> = {}): Firing {
  return {
    id: IDS.firing,
    ruleId: IDS.rule,
    type: 'triggered',
    subject: { kind: 'project', id: 'project-1' },
    figures: { failRatePercent: 25, transactions: 40, failed: 10, windowMinutes: 60 },
    at: '2026-11-28T09:15:00.000Z',
    ...overrides,
  };
}

export function buildDelivery(overrides: Partial<Delivery> = {}): Delivery {
  return {
    id: 'delivery-1',
    noticeId: '6f1c2a9e-0000-4000-8000-000000000001',
    noticeType: 'test',
    attempt: 1,
    at: '2026-11-28T09:16:00.000Z',
    statusCode: 200,
    latencyMs: 42,
    error: null,
    state: 'delivered',
    ...overrides,
  };
}

export function buildSubscription(
  email: string,
  overrides: Partial<ReportSubscription> = {},
): ReportSubscription {
  return { userId: `user-${email.split('@')[0]}`, email, weekly: false, monthly: false, ...overrides };
}
