import { useState } from 'react';
import { useNavigate } from 'react-router';
import { DOCS } from '../../components/docs-links';
import { PageHeader } from '../../components/page-header';
import { Alert } from '../../components/ui/alert';
import { Locked } from '../../components/ui/locked';
import { errorMessage, MessageModal, type ModalMessage } from '../../components/ui/message-modal';
import { DeleteProjectCard } from '../../features/projects/components/delete-project-card';
import { AnnotationsCard } from '../../features/sdk-config/components/annotations-card';
import { ApiKeyCard } from '../../features/sdk-config/components/api-key-card';
import { DomainWhitelistCard } from '../../features/sdk-config/components/domain-whitelist-card';
import { ExportEventsCard } from '../../features/sdk-config/components/export-events-card';
import { ForgetCard } from '../../features/sdk-config/components/forget-card';
import { IgnoredWalletCodesCard } from '../../features/sdk-config/components/ignored-wallet-codes-card';
import { InstallSnippetsCard } from '../../features/sdk-config/components/install-snippets-card';
import { IntegrationTestCard } from '../../features/sdk-config/components/integration-test-card';
import { ReadTokensCard } from '../../features/sdk-config/components/read-tokens-card';
import { RetentionCard } from '../../features/sdk-config/components/retention-card';
import { SourceMapsCard } from '../../features/sdk-config/components/source-maps-card';
import { TimeZoneCard } from '../../features/sdk-config/components/time-zone-card';
import { WriteTokensCard } from '../../features/sdk-config/components/write-tokens-card';
import { canManage, isOwner, OWNER_HINT, ROLE_LABELS, VIEWER_HINT } from '../../lib/roles';
import { useConsoleContext } from './console-outlet';

/**
 * The SDK screen: key, whitelist, install, test, write tokens, source maps, read tokens, retention, time zone, annotations, the raw export, forgetting a wallet
 * or user, and the project's danger zone.
 */
export function ConfigPage() {
  const { project } = useConsoleContext();
  const navigate = useNavigate();
  const [modal, setModal] = useState<ModalMessage | null>(null);
  const showError = (error: Error) => setModal(errorMessage(error));
  // A viewer sees every card with its controls disabled (the reason on hover), never a refused change.
  const manageLock = canManage(project.role) ? null : VIEWER_HINT;

  return (
    <div className="flex animate-panel flex-col gap-4">
      <PageHeader
        eyebrow={project.name}
        title="SDK"
        help={{ href: DOCS.gettingStarted, topic: 'installing the SDK' }}
      />
      {manageLock && (
        <Alert tone="info">
          You are a {ROLE_LABELS[project.role].toLowerCase()} of this project: you can read everything here,
          and its admins or owner change it.
        </Alert>
      )}
      <div className="grid gap-4 xl:grid-cols-2">
        <Locked reason={manageLock}>
          <ApiKeyCard project={project} onError={showError} />
        </Locked>
        <Locked reason={manageLock}>
          <DomainWhitelistCard project={project} onError={showError} />
        </Locked>
        <InstallSnippetsCard project={project} />
        <IntegrationTestCard projectId={project.id} />
        <Locked reason={manageLock}>
          <WriteTokensCard key={`write-tokens-${project.id}`} project={project} onError={showError} />
        </Locked>
        <Locked reason={manageLock}>
          <SourceMapsCard key={`source-maps-${project.id}`} project={project} onError={showError} />
        </Locked>
        <Locked reason={manageLock}>
          <ReadTokensCard key={`tokens-${project.id}`} project={project} onError={showError} />
        </Locked>
        <div className="flex min-w-0 flex-col gap-4">
          <Locked reason={manageLock}>
            <RetentionCard key={`retention-${project.id}`} project={project} onError={showError} />
          </Locked>
          <Locked reason={manageLock}>
            <TimeZoneCard key={`time-zone-${project.id}`} project={project} onError={showError} />
          </Locked>
        </div>
        {/* Two cards to a cell, each column as tall as its cards: a gap between them, and no card stretched
            to its row's height with nothing in it. */}
        <Locked reason={manageLock} className="flex flex-col gap-4">
          <AnnotationsCard key={`annotations-${project.id}`} projectId={project.id} onError={showError} />
          <IgnoredWalletCodesCard key={`wallet-codes-${project.id}`} project={project} onError={showError} />
        </Locked>
        <div className="flex min-w-0 flex-col gap-4">
          <ExportEventsCard key={`export-${project.id}`} project={project} />
          <Locked reason={manageLock}>
            <ForgetCard key={`forget-${project.id}`} project={project} />
          </Locked>
        </div>
      </div>
      {/* Deleting clears the current project; the shell then opens the switcher by itself. */}
      <Locked reason={isOwner(project.role) ? null : OWNER_HINT}>
        <DeleteProjectCard
          key={project.id}
          project={project}
          onDeleted={() => navigate('/console/analytics')}
        />
      </Locked>
      <MessageModal content={modal} onClose={() => setModal(null)} />
    </div>
  );
}
