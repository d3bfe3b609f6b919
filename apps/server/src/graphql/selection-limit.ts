import type { ASTVisitor, FragmentDefinitionNode, SelectionSetNode, ValidationContext } from 'graphql';
import { loadedGraphql } from './library.ts';

/**
 * Fields one operation may select, counted as its answer repeats them: every field at every level (the
 * introspection's too), each alias and `__typename` included, a fragment's fields once for every place it is
 * spread. No field of ours below the root takes an argument, so an alias there asks the same data again: 160 aliases
 * of a wallet's `sessions`, each with 160 aliases under its events, made one server answer 114 MB from a
 * 422 KB document (docs/decisions/166). Measured against the console's documents (every `graphql(...)` of
 * apps/console/src, which graphql-console-documents.test.ts checks against this rule): the largest, the
 * incident page's, selects 76 fields, so 200 leaves 2.6 times that; the Analytics screen's cards batched in
 * one operation select about 90.
 */
export const MAX_FIELD_SELECTIONS = 200;

/**
 * The fields a selection set selects, its fragments expanded where they are spread. Each fragment is
 * counted once and its count reused, so that fragments spreading fragments twice over (2^n fields from n
 * fragments) cost one pass. Recursion is bounded by the document limits checked before parsing
 * (document-limits.ts: nesting and fragment definitions).
 */
export function countFieldSelections(
  selectionSet: SelectionSetNode,
  fragmentOf: (name: string) => FragmentDefinitionNode | null | undefined,
  counted: Map<string, number> = new Map(),
): number {
  const { Kind } = loadedGraphql();
  let count = 0;
  for (const selection of selectionSet.selections) {
    if (selection.kind === Kind.FIELD) {
      count += 1;
      if (selection.selectionSet) count += countFieldSelections(selection.selectionSet, fragmentOf, counted);
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      count += countFieldSelections(selection.selectionSet, fragmentOf, counted);
    } else {
      const name = selection.name.value;
      let fragmentCount = counted.get(name);
      if (fragmentCount === undefined) {
        // Zero while it is counted: a fragment spreading itself adds nothing more here (graphql-js's own
        // NoFragmentCycles rule refuses the document).
        counted.set(name, 0);
        const fragment = fragmentOf(name);
        fragmentCount = fragment ? countFieldSelections(fragment.selectionSet, fragmentOf, counted) : 0;
        counted.set(name, fragmentCount);
      }
      count += fragmentCount;
    }
  }
  return count;
}

/** A validation rule (runs with graphql-js's own, before any resolver): refuses an operation of too many fields. */
export function fieldSelectionLimit(context: ValidationContext): ASTVisitor {
  const { GraphQLError } = loadedGraphql();
  const counted = new Map<string, number>();
  return {
    OperationDefinition(operation) {
      const count = countFieldSelections(
        operation.selectionSet,
        (name) => context.getFragment(name),
        counted,
      );
      if (count <= MAX_FIELD_SELECTIONS) return;
      const shown = count > 1_000_000 ? 'over a million' : String(count);
      context.reportError(
        new GraphQLError(
          `An operation may select at most ${MAX_FIELD_SELECTIONS} fields (aliases included, a fragment counted wherever it is spread); this one selects ${shown}. Ask each field once, or send the rest in other requests.`,
          { nodes: operation },
        ),
      );
    },
  };
}
