import type { ASTVisitor, FragmentDefinitionNode, SelectionSetNode, ValidationContext } from 'graphql';
import { loadedGraphql } from './library.ts';

/**
 * Root fields one operation may ask, aliases and fragments counted. Every root field of a query is a
 * dashboard question run at once with the others, so without a bound one request of 1,000 aliases
 * asks 1,000 questions (docs/decisions/144). The console asks one per request; scripts have room.
 */
export const MAX_ROOT_FIELDS = 20;

function countFields(
  selectionSet: SelectionSetNode,
  fragmentOf: (name: string) => FragmentDefinitionNode | null | undefined,
  spread: Set<string>,
): number {
  const { Kind } = loadedGraphql();
  let count = 0;
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FIELD) count += 1;
    else if (selection.kind === Kind.INLINE_FRAGMENT) {
      count += countFields(selection.selectionSet, fragmentOf, spread);
    } else if (!spread.has(selection.name.value)) {
      // A fragment spread twice answers its fields once (same response keys); a cycle is refused by
      // graphql-js's own NoFragmentCycles rule.
      spread.add(selection.name.value);
      const fragment = fragmentOf(selection.name.value);
      if (fragment) count += countFields(fragment.selectionSet, fragmentOf, spread);
    }
  }
  return count;
}

/** A validation rule (runs with graphql-js's own, before any resolver): refuses an operation of too many root fields. */
export function rootFieldLimit(context: ValidationContext): ASTVisitor {
  const { GraphQLError } = loadedGraphql();
  return {
    OperationDefinition(operation) {
      const count = countFields(operation.selectionSet, (name) => context.getFragment(name), new Set());
      if (count <= MAX_ROOT_FIELDS) return;
      context.reportError(
        new GraphQLError(
          `An operation may ask at most ${MAX_ROOT_FIELDS} root fields (aliases included); this one asks ${count}. Send the rest in other requests.`,
          { nodes: operation },
        ),
      );
    },
  };
}
