import type { IResolvers } from 'mercurius';
import type { GraphqlModule } from '../../graphql/module.ts';
import { RangeArgs, readerQuery } from '../../reading/resolver.ts';
import { annotationsTypeDefs } from './schema.ts';
import type { AnnotationService } from './service.ts';

/** `annotations(projectId, from, to)`: what the REST list gives, for readers (a session or a read token). */
export function annotationsGraphqlModule({ annotations }: { annotations: AnnotationService }): GraphqlModule {
  const resolvers: IResolvers = {
    Query: {
      annotations: readerQuery(RangeArgs, async (reader, { projectId, from, to }) => {
        const found = await annotations.listMeeting(reader.userId, projectId, { from, to });
        return reader.isToken ? found.map((annotation) => ({ ...annotation, createdBy: null })) : found;
      }),
    },
  };
  return { typeDefs: annotationsTypeDefs, resolvers };
}
