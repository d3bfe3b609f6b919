import type { Project } from '@polyflow/contracts/projects';
import { NoDataYet } from '../../../components/no-data-yet';
import { PageHeader } from '../../../components/page-header';
import { Card, CardHeader } from '../../../components/ui/card';

export function AnalyticsScreen({ project, configPath }: { project: Project; configPath: string }) {
  return (
    <div className="flex animate-panel flex-col gap-4">
      <PageHeader eyebrow={project.name} title="Analytics" />
      <Card aria-labelledby="overview-title">
        <CardHeader titleId="overview-title" eyebrow="Wallets & transactions" title="Overview" />
        <NoDataYet configPath={configPath}>Wallet and transaction analytics arrive with the SDK.</NoDataYet>
      </Card>
    </div>
  );
}
