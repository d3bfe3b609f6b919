import { z } from 'zod';
import { LABEL_MESSAGE, LABEL_PATTERN } from './text.ts';

export const ProjectSchema = z.object({
  id: z.string(),
  name: z.string(),
  apiKey: z.string().nullable(),
  ownerId: z.string(),
  createdAt: z.string(),
  whitelistedDomains: z.array(z.string()),
});
export type Project = z.infer<typeof ProjectSchema>;

export const ProjectListSchema = z.object({ projects: z.array(ProjectSchema) });

/** A name is shown as typed: control characters and lone surrogates are refused, never cleaned up. */
export const CreateProjectSchema = z.object({
  name: z.string().trim().min(1).max(100).regex(LABEL_PATTERN, LABEL_MESSAGE),
});
export const DomainInputSchema = z.object({ domain: z.string().trim().min(1).max(300) });
