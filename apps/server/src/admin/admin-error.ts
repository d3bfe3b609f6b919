/** A failure the operator can fix: printed as its message alone, exit code 1. */
export class AdminError extends Error {}
