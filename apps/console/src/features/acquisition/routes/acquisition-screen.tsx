import type { Project } from '@polyflow/contracts/projects';
import { NoDataYet } from '../../../components/no-data-yet';
import { PageHeader } from '../../../components/page-header';
import { Card, CardHeader } from '../../../components/ui/card';

export function AcquisitionScreen({ project, configPath }: { project: Project; configPath: string }) {
  return (
    <div className="flex animate-panel flex-col gap-4">
      <PageHeader eyebrow={project.name} title="User Acquisition" />
      <Card aria-labelledby="behavior-title">
        <CardHeader titleId="behavior-title" eyebrow="Funnel" title="User behavior" />
        <NoDataYet configPath={configPath}>The wallet funnel fills in as the SDK reports visits.</NoDataYet>
      </Card>
      <Card aria-labelledby="attributions-title">
        <CardHeader titleId="attributions-title" eyebrow="Campaigns" title="Attributions" />
        <NoDataYet configPath={configPath}>UTM attributions appear with the first tagged visits.</NoDataYet>
      </Card>
    </div>
  );
}
