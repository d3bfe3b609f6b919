/** The range the wallet cards and the list are asked for: the project and a resolved period. */
export interface WalletRange {
  projectId: string;
  from: string;
  to: string;
}

/** Query keys start with the project id, so choosing another project asks everything again. */
export const walletKeys = {
  of: (name: string, projectId: string, extra: Record<string, unknown> = {}) =>
    ['projects', projectId, 'wallets', name, extra] as const,
};
