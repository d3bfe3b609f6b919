import { DOCS } from '../../components/docs-links';
import { PageHeader } from '../../components/page-header';
import { GraphiqlEditor } from '../../features/graphiql/components/graphiql-editor';
import { useConsoleContext } from './console-outlet';

/** GraphiQL against the project owner's own /api/graphql, inside the signed-in console shell. */
export function GraphiqlPage() {
  const { project } = useConsoleContext();
  return (
    <div className="flex animate-panel flex-col gap-4">
      <PageHeader
        eyebrow={project.name}
        title="GraphQL API"
        help={{ href: DOCS.graphql, topic: 'the GraphQL reference' }}
      />
      <GraphiqlEditor projectId={project.id} />
    </div>
  );
}
