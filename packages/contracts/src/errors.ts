import { z } from 'zod';

/** Error codes of the original Polyflow API (reference file), plus the ones ingestion, rate limits and short verification codes need. */
export const ErrorCodes = [
  'INVALID_REQUEST_BODY',
  'BAD_AUTHENTICATION',
  'NON_EXISTENT_API_KEY',
  'ACCESS_FORBIDDEN',
  'USER_NOT_YET_VERIFIED',
  'RESOURCE_NOT_FOUND',
  'USER_ALREADY_EXISTS',
  'USER_SECURE_TOKEN_INVALID',
  'USER_SECURE_CODE_INVALID',
  'DOMAIN_ALREADY_WHITELISTED',
  'ORIGIN_NOT_WHITELISTED',
  'PAYLOAD_TOO_LARGE',
  'UNSUPPORTED_MEDIA_TYPE',
  'UNSUPPORTED_CONTENT_ENCODING',
  'RATE_LIMITED',
  'TOO_MANY_EXPORTS',
  'INGESTION_BACKLOG',
  'CUSTOM_EVENT_LIMIT',
  'STORAGE_FULL',
  'INVALID_REQUEST',
  'URI_TOO_LONG',
  'HEADERS_TOO_LARGE',
  'SERVICE_UNHEALTHY',
  'XSRF_TOKEN_MISMATCH',
  'INTERNAL_ERROR',
  'MEMBER_ALREADY_EXISTS',
  'INVITATION_ALREADY_PENDING',
  'INVITATION_INVALID',
  'ASSIGNEE_NOT_MEMBER',
  'WEBHOOK_ADDRESS_REFUSED',
  'REPORT_LINK_INVALID',
  'INVALID_SOURCE_MAP',
  'GOAL_PATTERN_INVALID',
  'GOAL_LIMIT',
] as const;
export type ErrorCode = (typeof ErrorCodes)[number];

export const FieldIssueSchema = z.object({ path: z.string(), message: z.string() });
export type FieldIssue = z.infer<typeof FieldIssueSchema>;

/** Every 4xx/5xx body: `{errorCode, message}`, with per-field details on validation failures. */
export const ApiErrorSchema = z.object({
  errorCode: z.string(),
  message: z.string(),
  details: z.array(FieldIssueSchema).optional(),
});
export type ApiError = z.infer<typeof ApiErrorSchema>;
