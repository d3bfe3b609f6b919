import { type ForgetRequest, type ForgetResult, ForgetResultSchema } from '@polyflow/contracts/projects';
import { useMutation } from '@tanstack/react-query';
import { type ApiError, apiRequest } from '../../../lib/api-client';

type Variables = { projectId: string; subject: ForgetRequest };

/** Deletes every event of one wallet or one user of the project (a data-subject request). */
export function forgetSubject({ projectId, subject }: Variables): Promise<ForgetResult> {
  return apiRequest(`/projects/${encodeURIComponent(projectId)}/forget`, {
    method: 'POST',
    auth: true,
    body: subject,
    schema: ForgetResultSchema,
  });
}

export function useForgetSubject() {
  return useMutation<ForgetResult, ApiError, Variables>({ mutationFn: forgetSubject });
}
