import type { AuditEntry } from '@polyflow/contracts/members';
import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { AuditLogTable } from './audit-log-table';

const entry = (overrides: Partial<AuditEntry>): AuditEntry => ({
  id: overrides.id ?? 'entry-1',
  at: '2026-11-03T10:00:00.000Z',
  actor: { userId: 'user-1', email: 'demo@polyflow.dev' },
  action: 'goal.create',
  target: '01a2330f-4f4e-7000-8000-000000000001',
  details: {},
  ip: '127.0.0.1',
  ...overrides,
});

describe('AuditLogTable', () => {
  it('names goals, funnels and annotations rather than printing their ids', () => {
    render(
      <AuditLogTable
        entries={[
          entry({ id: 'a', action: 'goal.create' }),
          entry({ id: 'b', action: 'funnel.create', target: '01a2330f-0000-7000-8000-000000000002' }),
          entry({ id: 'c', action: 'annotation.create', target: '01a2330f-0000-7000-8000-000000000003' }),
          entry({
            id: 'd',
            action: 'goal.update',
            target: '01a2330f-0000-7000-8000-000000000004',
            details: { name: 'Requested a swap quote' },
          }),
        ]}
      />,
    );
    const rows = screen.getAllByRole('listitem').map((row) => row.textContent ?? '');
    for (const row of rows) expect(row).not.toMatch(/01a2330f/);
    expect(rows[0]).toContain('demo@polyflow.dev Added a goal');
    expect(rows[1]).toContain('Created a funnel');
    expect(rows[2]).toContain('Added an annotation');
    // A name the record carries is shown, once, as the target.
    expect(rows[3]).toContain('Changed a goal “Requested a swap quote”');
    expect(rows[3]).not.toContain('(name');
  });

  it('names a release as the Source maps card does: quoted when blank, padded or holding invisible characters', () => {
    const deleted = { files: 2, bytes: 2048 };
    render(
      <AuditLogTable
        entries={[
          entry({ id: 'a', action: 'sourcemaps.delete', target: '1.0', details: deleted }),
          entry({ id: 'b', action: 'sourcemaps.delete', target: '1.0 ', details: deleted }),
          entry({ id: 'c', action: 'sourcemaps.upload', target: '   ', details: {} }),
          entry({ id: 'd', action: 'sourcemaps.upload', target: '\u200b', details: {} }),
          entry({ id: 'e', action: 'sourcemaps.delete', target: 'v2\u202e1', details: deleted }),
          entry({ id: 'f', action: 'sourcemaps.upload', target: '', details: {} }),
        ]}
      />,
    );
    const rows = screen.getAllByRole('listitem').map((row) => row.textContent ?? '');
    expect(rows[0]).toContain('Deleted the source maps of release 1.0 (files 2, bytes 2048)');
    expect(rows[1]).toContain('Deleted the source maps of release "1.0 " (files 2');
    expect(rows[2]).toContain('Uploaded source maps for release "   "');
    expect(rows[3]).toContain('Uploaded source maps for release "\\u200b"');
    expect(rows[4]).toContain('Deleted the source maps of release "v2\\u202e1"');
    // An empty name still names the release, where the entry used to end after "release".
    expect(rows[5]).toContain('Uploaded source maps for release ""');
  });

  it('keeps the targets that are names already', () => {
    render(<AuditLogTable entries={[entry({ action: 'domain.add', target: 'app.example.com' })]} />);
    expect(screen.getByRole('listitem').textContent).toContain('Added a domain app.example.com');
  });
});
