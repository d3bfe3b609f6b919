import { z } from 'zod';

/**
 * Weekly and monthly email reports (docs/reports.md): each member of a project opts in per project to
 * each kind; both are off until they do.
 */

export const ReportKinds = ['weekly', 'monthly'] as const;
export type ReportKind = (typeof ReportKinds)[number];

/** One member's choice; every member of the project is listed, with `false` for what they never chose. */
export const ReportSubscriptionSchema = z.object({
  userId: z.string(),
  email: z.string(),
  weekly: z.boolean(),
  monthly: z.boolean(),
});
export type ReportSubscription = z.infer<typeof ReportSubscriptionSchema>;

export const ReportSubscriptionListSchema = z.object({
  reportSubscriptions: z.array(ReportSubscriptionSchema),
});
export type ReportSubscriptionList = z.infer<typeof ReportSubscriptionListSchema>;

/** `PUT …/report-subscriptions/me`: the caller's own choice for the project, both kinds at once. */
export const UpdateReportSubscriptionSchema = z.object({ weekly: z.boolean(), monthly: z.boolean() });
export type UpdateReportSubscription = z.infer<typeof UpdateReportSubscriptionSchema>;
