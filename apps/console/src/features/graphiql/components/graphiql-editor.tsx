import { GraphiQL } from 'graphiql';
import { buildSchema } from 'graphql';
import { type ComponentProps, useEffect, useId, useRef } from 'react';
import schemaSdl from '../../../../../../docs/graphql-schema.graphql?raw';
import 'graphiql/style.css';
import './graphiql-phone.css';
import { GRAPHQL_URL, signedInGraphqlHeaders } from '../../../lib/graphql-client';
import { clearStoredSession } from '../../../lib/storage';

/**
 * Every request GraphiQL sends (the schema's introspection included) goes to the console's own
 * /api/graphql with the owner's session headers, as the console's GraphQL client sends them. A 401 ends
 * the stored session, and the console's guard then sends the visitor to the login screen.
 */
const fetcher: ComponentProps<typeof GraphiQL>['fetcher'] = async (params) => {
  const response = await fetch(GRAPHQL_URL, {
    method: 'POST',
    headers: signedInGraphqlHeaders(),
    body: JSON.stringify(params),
    credentials: 'same-origin',
  });
  if (response.status === 401) clearStoredSession();
  return response.json();
};

/**
 * The published schema (docs/graphql-schema.graphql, kept equal to the server's by a server test) rather
 * than an introspection request: GraphiQL's introspection query is 15 levels deep, and the server refuses
 * queries deeper than 12 (src/graphql/plugin.ts), which stays as it is.
 */
const schema = buildSchema(schemaSdl);

/** The editors of GraphiQL's tool pane, in their order. */
const TOOL_EDITORS = ['Variables', 'Headers'];

/** A first query that runs as it stands: the project's connected wallets by day. */
function starterQuery(projectId: string): string {
  return `# Polyflow's GraphQL API (docs/graphql-schema.graphql). Run with Ctrl-Enter.
query ConnectedWallets {
  totalConnectedWallets(projectId: "${projectId}", granularity: "1d") {
    from
    to
    value
  }
}
`;
}

/**
 * GraphiQL 4 (CodeMirror 5 editors), bundled from npm rather than loaded from a CDN, so the console's CSP
 * stays `script-src 'self'`. GraphiQL 5's Monaco editor and its workers would add about 150 MB to a first
 * start's install (ADR 076). This module is only ever loaded lazily: it is several hundred KB, far outside
 * the first screen's budget.
 */
export function GraphiqlEditor({ projectId }: { projectId: string }) {
  const root = useRef<HTMLDivElement>(null);
  const hintId = useId();
  // CodeMirror types into a hidden textarea GraphiQL leaves without a name: a screen reader announced
  // "edit text" alone (axe: label). Each takes its editor's name: the region around it ("Query Editor",
  // "Result Window"), or for the tool pane's two editors, which share one region, Variables and Headers.
  // Each is also described by the hint that says how to leave it.
  useEffect(() => {
    const editors = root.current;
    if (!editors) return;
    const nameOf = (field: Element) => {
      const editor = field.closest('.graphiql-editor');
      const tools = editor?.parentElement;
      if (editor && tools?.classList.contains('graphiql-editor-tool'))
        return TOOL_EDITORS[[...tools.children].indexOf(editor)] ?? 'GraphQL editor';
      return field.closest('[aria-label]')?.getAttribute('aria-label') ?? 'GraphQL editor';
    };
    const name = () => {
      for (const field of editors.querySelectorAll('textarea:not([aria-label])'))
        field.setAttribute('aria-label', nameOf(field));
      for (const field of editors.querySelectorAll('.CodeMirror textarea:not([aria-describedby])'))
        field.setAttribute('aria-describedby', hintId);
    };
    name();
    const observer = new MutationObserver(name);
    observer.observe(editors, { childList: true, subtree: true });
    return () => observer.disconnect();
  }, [hintId]);
  useEffect(() => {
    const editors = root.current;
    if (!editors) return;
    return leaveEditorsWithEscapeThenTab(editors);
  }, []);
  return (
    <div className="flex flex-col gap-2">
      <p id={hintId} className="px-1 text-sm text-slate-600">
        Tab indents in the editors. Press <kbd className={KEY}>Esc</kbd>, then <kbd className={KEY}>Tab</kbd>,
        to leave the editor.
      </p>
      <div
        ref={root}
        className="polyflow-graphiql h-[52rem] overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm sm:h-[40rem]"
      >
        <GraphiQL fetcher={fetcher} schema={schema} defaultQuery={starterQuery(projectId)} />
      </div>
    </div>
  );
}

const KEY = 'rounded border border-slate-300 bg-slate-50 px-1 font-mono text-xs text-slate-800';

/**
 * In GraphiQL's CodeMirror 5 editors Tab and Shift+Tab indent, so a keyboard could not get out of them
 * (WCAG 2.1.2). CodeMirror 5 has no way out of its own; this is CodeMirror 6's: Escape, then Tab or
 * Shift+Tab, moves focus to the next or previous control. The Tab is kept from CodeMirror (a listener that
 * captures it on the way down) and the browser moves focus as it does anywhere else. Any other key, or
 * focus leaving, ends it: Escape also closes the completion list, and typing after it indents as before.
 */
function leaveEditorsWithEscapeThenTab(editors: HTMLElement): () => void {
  let isLeaving = false;
  const inEditor = (target: EventTarget | null) =>
    target instanceof Element && !!target.closest('.CodeMirror');
  const onKeyDown = (event: KeyboardEvent) => {
    if (!inEditor(event.target)) return;
    if (event.key === 'Escape') {
      isLeaving = true;
    } else if (event.key === 'Tab' && isLeaving && !event.ctrlKey && !event.altKey && !event.metaKey) {
      isLeaving = false;
      event.stopPropagation();
    } else if (!['Shift', 'Control', 'Alt', 'Meta'].includes(event.key)) {
      isLeaving = false;
    }
  };
  const onFocusOut = () => {
    isLeaving = false;
  };
  editors.addEventListener('keydown', onKeyDown, true);
  editors.addEventListener('focusout', onFocusOut);
  return () => {
    editors.removeEventListener('keydown', onKeyDown, true);
    editors.removeEventListener('focusout', onFocusOut);
  };
}
