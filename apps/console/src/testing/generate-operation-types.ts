import { generate } from '@graphql-codegen/cli';
import config from '../../codegen';

/**
 * Vitest global setup of the console project: writes src/gql/ (the operations' types and documents, not
 * committed) before any test file imports it, so `vitest run` works on a fresh clone and sees operations
 * added since the last `npm run codegen`. A document the schema refuses fails the run here.
 *
 * `npm test` (scripts/test.sh) generates them itself before the build, seconds earlier, and says so with
 * POLYFLOW_TEST_CODEGEN_DONE=1: the run does not generate them a second time before its first test.
 */
export default async function generateOperationTypes(): Promise<void> {
  if (process.env.POLYFLOW_TEST_CODEGEN_DONE === '1') return;
  await generate({ ...config, silent: true, errorsOnly: true }, true);
}
