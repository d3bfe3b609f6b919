import type { Project } from '@polyflow/contracts/projects';
import { NoDataYet } from '../../../components/no-data-yet';
import { PageHeader } from '../../../components/page-header';
import { Card, CardHeader } from '../../../components/ui/card';

export function IncidentsScreen({ project, configPath }: { project: Project; configPath: string }) {
  return (
    <div className="flex animate-panel flex-col gap-4">
      <PageHeader eyebrow={project.name} title="Incident Tracking" />
      <Card aria-labelledby="incidents-title">
        <CardHeader titleId="incidents-title" eyebrow="Last 7 days" title="Incidents" />
        <NoDataYet configPath={configPath}>
          Failed transactions and frontend errors are reported by the SDK.
        </NoDataYet>
      </Card>
    </div>
  );
}
