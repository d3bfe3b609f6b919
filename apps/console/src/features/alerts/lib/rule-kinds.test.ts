import { describe, expect, it } from 'vitest';
import { urlError } from '../components/channel-form';
import { COOLDOWN_FIELD, describeParams, fieldError, parseParams, RULE_KINDS } from './rule-kinds';

const field = (kind: keyof typeof RULE_KINDS, name: string) => {
  const found = RULE_KINDS[kind].fields.find((candidate) => candidate.name === name);
  if (!found) throw new Error(`no field ${name}`);
  return found;
};

describe('rule parameters', () => {
  it("keeps each kind's ranges from issue 27", () => {
    const window = field('tx_fail_rate', 'windowMinutes');
    expect(fieldError(window, '5')).toBeNull();
    expect(fieldError(window, '1440')).toBeNull();
    expect(fieldError(window, '4')).toBe('Window must be a whole number from 5 to 1440');
    expect(fieldError(window, '1441')).not.toBeNull();
    expect(fieldError(window, '30.5')).not.toBeNull();
    expect(fieldError(window, '')).not.toBeNull();
    const threshold = field('tx_fail_rate', 'thresholdPercent');
    expect(fieldError(threshold, '0')).toBeNull();
    expect(fieldError(threshold, '12.5')).toBeNull();
    expect(fieldError(threshold, '100.1')).toBe('Fail rate above must be a number from 0 to 100');
    expect(fieldError(field('tx_fail_rate', 'minTransactions'), '0')).toBe(
      'At least must be a whole number of 1 or more',
    );
    expect(fieldError(field('incident_spike', 'threshold'), '1')).toBeNull();
    expect(fieldError(field('no_events', 'hours'), '168')).toBeNull();
    expect(fieldError(field('no_events', 'hours'), '169')).not.toBeNull();
    expect(fieldError(field('new_incident', 'minSeverity'), 'severe')).toBeNull();
    expect(fieldError(field('new_incident', 'minSeverity'), 'Severe')).toBe('Choose a severity');
    expect(fieldError(COOLDOWN_FIELD, '60')).toBeNull();
  });

  it('parses only valid parameters, as numbers', () => {
    expect(
      parseParams('tx_fail_rate', { windowMinutes: ' 30 ', thresholdPercent: '2.5', minTransactions: '1' }),
    ).toEqual({
      windowMinutes: 30,
      thresholdPercent: 2.5,
      minTransactions: 1,
    });
    expect(parseParams('tx_fail_rate', { windowMinutes: '30', thresholdPercent: '2.5' })).toBeNull();
    expect(parseParams('incident_regression', {})).toEqual({});
    expect(parseParams('new_incident', { minSeverity: 'mid' })).toEqual({ minSeverity: 'mid' });
  });

  it('says what a rule watches in one line', () => {
    expect(describeParams('incident_spike', { threshold: 50, windowMinutes: 15 })).toBe(
      'One incident 50 times or more within 15 minutes',
    );
    expect(describeParams('new_incident', { minSeverity: 'high' })).toBe(
      'A new incident of severity High or higher',
    );
  });
});

describe('channel URLs', () => {
  it('takes http(s) URLs only, and Slack and Discord URLs only for those types', () => {
    expect(urlError('https://example.com/hook', 'webhook')).toBeNull();
    expect(urlError('http://127.0.0.1:8080/hook', 'webhook')).toBeNull();
    expect(urlError('javascript:alert(1)', 'webhook')).toBe('Only http:// and https:// URLs');
    expect(urlError('example.com/hook', 'webhook')).toBe('Enter a full URL, starting with https://');
    expect(urlError(`https://example.com/${'a'.repeat(2048)}`, 'webhook')).toMatch(/longer than 2048/);
    expect(urlError('https://example.com/hook', 'slack')).toMatch(/Slack incoming webhook/);
    expect(urlError('https://hooks.slack.com/services/T000/B000/XXXX', 'slack')).toBeNull();
    expect(urlError('https://discord.com/api/webhooks/123/abc', 'discord')).toBeNull();
    expect(urlError('https://hooks.slack.com/services/T000/B000/XXXX', 'discord')).toMatch(/Discord webhook/);
  });
});
