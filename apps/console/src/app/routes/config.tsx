import { useState } from 'react';
import { useNavigate } from 'react-router';
import { DOCS } from '../../components/docs-links';
import { PageHeader } from '../../components/page-header';
import { errorMessage, MessageModal, type ModalMessage } from '../../components/ui/message-modal';
import { DeleteProjectCard } from '../../features/projects/components/delete-project-card';
import { ApiKeyCard } from '../../features/sdk-config/components/api-key-card';
import { DomainWhitelistCard } from '../../features/sdk-config/components/domain-whitelist-card';
import { ExportEventsCard } from '../../features/sdk-config/components/export-events-card';
import { ForgetCard } from '../../features/sdk-config/components/forget-card';
import { InstallSnippetsCard } from '../../features/sdk-config/components/install-snippets-card';
import { IntegrationTestCard } from '../../features/sdk-config/components/integration-test-card';
import { ReadTokensCard } from '../../features/sdk-config/components/read-tokens-card';
import { RetentionCard } from '../../features/sdk-config/components/retention-card';
import { useConsoleContext } from './console-outlet';

/**
 * The SDK screen: key, whitelist, install, test, read tokens, retention, the raw export, forgetting a wallet
 * or user, and the project's danger zone.
 */
export function ConfigPage() {
  const { project } = useConsoleContext();
  const navigate = useNavigate();
  const [modal, setModal] = useState<ModalMessage | null>(null);
  const showError = (error: Error) => setModal(errorMessage(error));

  return (
    <div className="flex animate-panel flex-col gap-4">
      <PageHeader
        eyebrow={project.name}
        title="SDK"
        help={{ href: DOCS.gettingStarted, topic: 'installing the SDK' }}
      />
      <div className="grid gap-4 xl:grid-cols-2">
        <ApiKeyCard project={project} onError={showError} />
        <DomainWhitelistCard project={project} onError={showError} />
        <InstallSnippetsCard project={project} />
        <IntegrationTestCard projectId={project.id} />
        <ReadTokensCard key={`tokens-${project.id}`} project={project} onError={showError} />
        <RetentionCard key={`retention-${project.id}`} project={project} onError={showError} />
        <ExportEventsCard key={`export-${project.id}`} project={project} />
        <ForgetCard key={`forget-${project.id}`} project={project} />
      </div>
      {/* Deleting clears the current project; the shell then opens the switcher by itself. */}
      <DeleteProjectCard
        key={project.id}
        project={project}
        onDeleted={() => navigate('/console/analytics')}
      />
      <MessageModal content={modal} onClose={() => setModal(null)} />
    </div>
  );
}
