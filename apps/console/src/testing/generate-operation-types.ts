import { generate } from '@graphql-codegen/cli';
import config from '../../codegen';

/**
 * Vitest global setup of the console project: writes src/gql/ (the operations' types and documents, not
 * committed) before any test file imports it, so `vitest run` works on a fresh clone and sees operations
 * added since the last `npm run codegen`. A document the schema refuses fails the run here.
 */
export default async function generateOperationTypes(): Promise<void> {
  await generate({ ...config, silent: true, errorsOnly: true }, true);
}
