import { AppError } from '../errors.ts';

/**
 * A malformed range, granularity, cursor or limit. A 400 with the generic body code on REST; GraphQL
 * reports it with `extensions.code` BAD_USER_INPUT (graphql/errors.ts).
 */
export class InputError extends AppError {
  constructor(message: string) {
    super(400, 'INVALID_REQUEST_BODY', message);
    this.name = 'InputError';
  }
}
