import { AppError } from '../errors.ts';

/**
 * A malformed range, granularity, cursor or limit. A 400 with the generic body code on REST; the GraphQL
 * layer reports it with `extensions.code` BAD_USER_INPUT.
 */
export class InputError extends AppError {
  readonly graphqlCode = 'BAD_USER_INPUT';
  constructor(message: string) {
    super(400, 'INVALID_REQUEST_BODY', message);
    this.name = 'InputError';
  }
}
