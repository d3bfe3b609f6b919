import type { Project } from '@polyflow/contracts/projects';
import { Card, CardHeader } from '../../../components/ui/card';
import { CodeSnippet } from './code-snippet';

const KEY_PLACEHOLDER = 'YOUR_API_KEY';

export function InstallSnippetsCard({
  project,
  origin = window.location.origin,
}: {
  project: Project;
  origin?: string;
}) {
  const key = project.apiKey ?? KEY_PLACEHOLDER;
  const scriptTag = `<script src="${origin}/sdk.js" data-api-key="${key}"></script>`;
  const npmSnippet = `npm install @polyflow/sdk\n\nimport { attach } from '@polyflow/sdk';\nattach('${key}', { host: '${origin}' });`;
  return (
    <Card aria-labelledby="install-title">
      <CardHeader
        titleId="install-title"
        eyebrow="Installation"
        title="Install the SDK"
        description={
          project.apiKey
            ? 'Add the script tag to the <head> of every page, before your own scripts (no async), or install the package and attach before creating wallet clients.'
            : `Create an API key first; the snippets show ${KEY_PLACEHOLDER} until then.`
        }
      />
      <div className="flex flex-col gap-4">
        <CodeSnippet title="Script tag" code={scriptTag} copyLabel="Copy script tag" />
        <CodeSnippet title="npm" code={npmSnippet} copyLabel="Copy npm snippet" />
      </div>
    </Card>
  );
}
