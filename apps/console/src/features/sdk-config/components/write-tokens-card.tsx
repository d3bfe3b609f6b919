import type { Project } from '@polyflow/contracts/projects';
import { UploadCloud } from '../../../components/ui/icons';
import { useCreateWriteToken } from '../api/create-write-token';
import { useWriteTokens } from '../api/get-write-tokens';
import { useRevokeWriteToken } from '../api/revoke-write-token';
import { TokensCard, type TokenTexts } from './tokens-card';

interface WriteTokensCardProps {
  project: Project;
  onError: (error: Error) => void;
}

const WRITE_TOKENS: TokenTexts = {
  kind: 'Write',
  eyebrow: 'Source maps',
  description:
    "For CI pipelines: a token uploads this project's source maps (npx @polyflow/cli sourcemaps upload) and does nothing else. Pass it as POLYFLOW_TOKEN.",
  emptyIcon: <UploadCloud aria-hidden="true" className="size-4 text-indigo-600" />,
  nameLabel: 'Write token name',
  namePlaceholder: 'E.g. GitHub Actions',
  createLabel: 'Create write token',
  shownOnce:
    "This is the only time the token is shown. Copy it now into your CI's secrets: anyone holding it can upload source maps to this project.",
  revokeWarning: (name) => <>Uploads with {name} are refused at once. This cannot be undone.</>,
};

/**
 * Write tokens for CI pipelines (docs/source-maps.md): they upload source maps and nothing else. Created with
 * a name, shown once, listed, revoked after a confirm, as read tokens are.
 */
export function WriteTokensCard({ project, onError }: WriteTokensCardProps) {
  return (
    <TokensCard
      projectId={project.id}
      texts={WRITE_TOKENS}
      tokens={useWriteTokens(project.id)}
      createToken={useCreateWriteToken()}
      revokeToken={useRevokeWriteToken()}
      onError={onError}
    />
  );
}
