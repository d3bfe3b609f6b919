/** The range the Events screen asks for: the project and a resolved period. */
export interface EventsRange {
  projectId: string;
  from: string;
  to: string;
}

/** Query keys start with the project id, so choosing another project asks everything again. */
export const customEventKeys = {
  of: (name: string, projectId: string, extra: Record<string, unknown> = {}) =>
    ['projects', projectId, 'custom-events', name, extra] as const,
};
