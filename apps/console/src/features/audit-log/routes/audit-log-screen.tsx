import type { AuditEntry } from '@polyflow/contracts/members';
import type { Project } from '@polyflow/contracts/projects';
import { PageHeader } from '../../../components/page-header';
import { Alert } from '../../../components/ui/alert';
import { Button } from '../../../components/ui/button';
import { Card } from '../../../components/ui/card';
import { EmptyState } from '../../../components/ui/empty-state';
import { Download, History } from '../../../components/ui/icons';
import { Spinner } from '../../../components/ui/spinner';
import { useDownloadAuditLog } from '../api/download-audit-log';
import { useAuditLog } from '../api/get-audit-log';
import { AuditLogTable } from '../components/audit-log-table';

/** Admins and the owner: every change to the project, newest first, a page at a time, and as CSV. */
export function AuditLogScreen({ project }: { project: Project }) {
  const log = useAuditLog(project.id);
  const download = useDownloadAuditLog();
  const entries: AuditEntry[] = log.data?.pages.flatMap((page) => page.entries) ?? [];
  return (
    <div className="flex animate-panel flex-col gap-4">
      <PageHeader eyebrow={project.name} title="Audit log">
        <Button
          variant="secondary"
          isLoading={download.isPending}
          onClick={() => download.mutate(project.id)}
        >
          <Download aria-hidden="true" className="size-4" />
          Download CSV
        </Button>
      </PageHeader>
      {download.isError && <Alert tone="error">{download.error.message}</Alert>}
      <Card>
        <p className="mb-4 text-sm text-slate-600">
          Who changed what, when and from which address: keys, domains, read tokens, retention, forget
          requests, incident status, alert channels, members, invitations and ownership. Kept for a year.
        </p>
        {log.isPending ? (
          <p className="flex items-center gap-2 text-sm text-slate-600">
            <Spinner /> Loading the audit log…
          </p>
        ) : log.isError ? (
          <Alert tone="error">Could not load the audit log: {log.error.message}</Alert>
        ) : entries.length === 0 ? (
          <EmptyState icon={<History className="size-6" />} title="Nothing recorded yet">
            Changes to the project appear here.
          </EmptyState>
        ) : (
          <>
            <AuditLogTable entries={entries} />
            {log.hasNextPage && (
              <div className="mt-4 flex justify-center">
                <Button
                  variant="secondary"
                  isLoading={log.isFetchingNextPage}
                  onClick={() => log.fetchNextPage()}
                >
                  Load older entries
                </Button>
              </div>
            )}
          </>
        )}
      </Card>
    </div>
  );
}
