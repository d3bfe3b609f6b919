import type { GraphqlModule } from '../../graphql/module.ts';
import type { ProjectAccess } from '../../lib/access.ts';
import type { Clock } from '../../lib/clock.ts';
import { walletGraphqlModule } from './resolvers.ts';
import { createWalletService, type WalletService, type WalletServiceDeps } from './service.ts';

export type WalletDeps = {
  projects: ProjectAccess;
  /** The event store's read side. */
  eventStore: WalletServiceDeps['store'];
  clock: Clock;
};

/** The wallet service and its GraphQL part, for app.ts to compose. */
export function createWallets(deps: WalletDeps): { service: WalletService; graphql: GraphqlModule } {
  const service = createWalletService({ projects: deps.projects, store: deps.eventStore, clock: deps.clock });
  return { service, graphql: walletGraphqlModule({ wallets: service }) };
}
