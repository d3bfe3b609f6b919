import type { Project } from '@polyflow/contracts/projects';
import { ArrowLeft } from 'lucide-react';
import { Link } from 'react-router';
import { NoDataYet } from '../../../components/no-data-yet';
import { PageHeader } from '../../../components/page-header';
import { Card, CardHeader } from '../../../components/ui/card';

interface IncidentScreenProps {
  project: Project;
  incidentId: string;
  listPath: string;
  configPath: string;
}

export function IncidentScreen({ project, incidentId, listPath, configPath }: IncidentScreenProps) {
  return (
    <div className="flex animate-panel flex-col gap-4">
      <Link
        to={listPath}
        className="inline-flex items-center gap-1 self-start text-sm font-semibold text-indigo-700"
      >
        <ArrowLeft aria-hidden="true" className="size-4" />
        All incidents
      </Link>
      <PageHeader eyebrow={project.name} title={`Incident ${incidentId}`} />
      <Card aria-labelledby="incident-title">
        <CardHeader titleId="incident-title" eyebrow="Details" title="Wallet state and error log" />
        <NoDataYet configPath={configPath}>This incident has no recorded details yet.</NoDataYet>
      </Card>
    </div>
  );
}
