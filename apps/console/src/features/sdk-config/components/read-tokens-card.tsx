import type { Project } from '@polyflow/contracts/projects';
import { KeySquare } from '../../../components/ui/icons';
import { useCreateReadToken } from '../api/create-read-token';
import { useReadTokens } from '../api/get-read-tokens';
import { useRevokeReadToken } from '../api/revoke-read-token';
import { TokensCard, type TokenTexts } from './tokens-card';

interface ReadTokensCardProps {
  project: Project;
  onError: (error: Error) => void;
}

const READ_TOKENS: TokenTexts = {
  kind: 'Read',
  eyebrow: 'Data access',
  description:
    "For scripts and BI tools: a token reads this project's analytics (GraphQL queries) and exports its events, and nothing else. Send it as Authorization: Bearer <token>.",
  emptyIcon: <KeySquare aria-hidden="true" className="size-4 text-indigo-600" />,
  nameLabel: 'Token name',
  namePlaceholder: 'E.g. Metabase or nightly export',
  createLabel: 'Create token',
  shownOnce:
    "This is the only time the token is shown. Copy it now and keep it secret: anyone holding it can read this project's analytics and export its events.",
  revokeWarning: (name) => <>Scripts and tools using {name} stop working at once. This cannot be undone.</>,
};

/** Read tokens for scripts and BI tools: created with a name, shown once, listed, revoked after a confirm. */
export function ReadTokensCard({ project, onError }: ReadTokensCardProps) {
  return (
    <TokensCard
      projectId={project.id}
      texts={READ_TOKENS}
      tokens={useReadTokens(project.id)}
      createToken={useCreateReadToken()}
      revokeToken={useRevokeReadToken()}
      onError={onError}
    />
  );
}
