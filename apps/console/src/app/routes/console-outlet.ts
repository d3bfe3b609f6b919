import type { Project } from '@polyflow/contracts/projects';
import { useOutletContext } from 'react-router';

/** What the console shell gives its child screens: the current project and the URL prefix for links. */
export interface ConsoleOutletContext {
  project: Project;
  basePath: string;
}

export function useConsoleContext(): ConsoleOutletContext {
  return useOutletContext<ConsoleOutletContext>();
}
