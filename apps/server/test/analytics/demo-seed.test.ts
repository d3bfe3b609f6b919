import { EventSchema } from '@polyflow/contracts/events';
import { describe, expect, it } from 'vitest';
import { ensureDemoAccount } from '../../scripts/demo/demo-account.ts';
import { DEMO_FUNNELS, DEMO_GOALS, ensureDemoDefinitions } from '../../scripts/demo/demo-definitions.ts';
import { replaceDemoEvents } from '../../scripts/demo/demo-events.ts';
import { generateDemoEvents } from '../../scripts/demo/generate-events.ts';
import { apiClient } from '../support/client.ts';
import { useTestApp } from '../support/harness.ts';
import { dataOf, graphqlClient } from './graphql-client.ts';

const END = Date.UTC(2024, 5, 1);

describe('demo event generator', () => {
  const events = [...generateDemoEvents({ endMs: END, users: 250 })];

  it('is deterministic and produces only valid wire events inside the period', () => {
    expect([...generateDemoEvents({ endMs: END, users: 250 })]).toEqual(events);
    for (const { event } of events) {
      expect(EventSchema.safeParse(event).success, JSON.stringify(event)).toBe(true);
      expect(event.ts).toBeLessThan(END);
      expect(event.ts).toBeGreaterThanOrEqual(END - 90 * 86_400_000);
    }
  });

  it('covers the providers, campaigns, outcomes and errors the screens show', () => {
    const providers = new Set(events.map((e) => e.event.wallet?.provider).filter(Boolean));
    expect([...providers]).toEqual(
      expect.arrayContaining(['MetaMask', 'Coinbase Wallet', 'Rabby Wallet', 'Phantom']),
    );
    const campaigns = new Set(events.map((e) => e.event.utm?.campaign ?? 'none'));
    expect([...campaigns]).toEqual(
      expect.arrayContaining(['TwitterAds-1', 'DiscordReferals-1', 'AdWords-3', 'Organic-1', 'none']),
    );
    const stages = new Set(events.flatMap((e) => (e.event.type === 'tx' ? [e.event.stage] : [])));
    expect([...stages]).toEqual(
      expect.arrayContaining(['confirmed', 'reverted', 'rejected', 'failed', 'submitted']),
    );
    const errors = events.filter((e) => e.event.type === 'error');
    expect(
      errors.some((e) => e.event.type === 'error' && e.event.source === 'wallet' && e.event.walletState),
    ).toBe(true);
    expect(errors.some((e) => e.event.type === 'error' && e.event.source === 'window' && e.event.stack)).toBe(
      true,
    );
  });
});

describe('seed:demo', () => {
  const test = useTestApp('sqlite');

  it('creates a verified demo account whose project has data in every overview tile, and refreshes it in place', async () => {
    const { services } = test;
    const seedOnce = async () => {
      const account = await ensureDemoAccount(services.db, {
        email: 'demo@polyflow.dev',
        password: 'polyflow-demo',
        clock: services.clock,
        eventStore: services.eventStore,
      });
      const written = await replaceDemoEvents(services.eventStore, account.project.id, {
        endMs: END,
        users: 300,
      });
      await ensureDemoDefinitions(services.db, {
        actor: { id: account.userId, email: account.email, ip: 'local' },
        projectId: account.project.id,
        clock: services.clock,
        eventStore: services.eventStore,
        endMs: END,
      });
      return { account, written };
    };
    const first = await seedOnce();
    expect(first.account.project.name).toBe('Demo DEX');
    // Both domains are added within a millisecond or two: their list order (added first, then by name)
    // depends on whether the clock ticked between them.
    expect([...first.account.project.whitelistedDomains].sort()).toEqual(['app.demo-dex.xyz', 'localhost']);
    expect(first.account.project.apiKey).toMatch(/^pf_/);

    const login = await apiClient(test.app).post('login', {
      body: { email: 'demo@polyflow.dev', password: 'polyflow-demo' },
    });
    expect(login.statusCode).toBe(200);
    const token = (login.json() as { token: string }).token;
    const gql = graphqlClient(test.app);
    const overviewOf = async () =>
      dataOf(
        await gql(
          `query($p: ID!) { analyticsOverview(projectId: $p, from: "2024-05-01", to: "2024-06-01") {
            totalTransactions connectedWallets newWallets transactionFailRate dailyActiveWallets
            averageTransactionsPerUserPerDay dailyActiveWalletsTrend { change } } }`,
          { p: first.account.project.id },
          { token },
        ),
      ).analyticsOverview as Record<string, unknown>;
    const overview = await overviewOf();
    for (const value of Object.values(overview)) expect(value).not.toBe(0);
    expect(overview.transactionFailRate).toBeGreaterThan(0);

    // The screens a team fills itself have data too: custom events, goals, saved funnels, annotations.
    const funnelsOf = async () =>
      (
        (await apiClient(test.app).get(`projects/${first.account.project.id}/funnels`, { token })).json() as {
          funnels: { id: string; name: string }[];
        }
      ).funnels;
    const definedOf = async () =>
      dataOf(
        await gql(
          `query($p: ID!) {
            customEvents(projectId: $p, from: "2024-05-01", to: "2024-06-01") { name events users }
            goalConversions(projectId: $p, from: "2024-05-01", to: "2024-06-01") { users goals { goal { name } conversions } }
            annotations(projectId: $p) { text startDate endDate } }`,
          { p: first.account.project.id },
          { token },
        ),
      ) as {
        customEvents: { name: string; events: number; users: number }[];
        goalConversions: { goals: { goal: { name: string }; conversions: number }[] };
        annotations: { text: string; startDate: string; endDate: string | null }[];
      };
    const defined = await definedOf();
    expect(defined.customEvents.map((row) => row.name).sort()).toEqual([
      'bridge_route_selected',
      'pool_opened',
      'quote_requested',
      'stake_calculator_used',
    ]);
    for (const row of defined.customEvents) expect(row.users).toBeGreaterThan(0);
    expect(defined.goalConversions.goals.map((row) => row.goal.name)).toEqual(
      DEMO_GOALS.map((goal) => goal.name),
    );
    for (const row of defined.goalConversions.goals) expect(row.conversions).toBeGreaterThan(0);
    const funnels = await funnelsOf();
    expect(funnels.map((funnel) => funnel.name)).toEqual(DEMO_FUNNELS.map((funnel) => funnel.name));
    for (const funnel of funnels) {
      const result = dataOf(
        await gql(
          `query($p: ID!, $f: ID!) { customFunnel(projectId: $p, funnelId: $f, from: "2024-05-01", to: "2024-06-01") { steps { users } } }`,
          { p: first.account.project.id, f: funnel.id },
          { token },
        ),
      ).customFunnel as { steps: { users: number }[] };
      // Every step reached by someone: a funnel of the demo that nobody completes would look broken.
      expect(result.steps.at(-1)?.users).toBeGreaterThan(0);
    }
    // The deploy behind the incident burst, three weeks before the data's end, and its fix two days later.
    expect(defined.annotations).toEqual([
      expect.objectContaining({ startDate: '2024-05-11', endDate: '2024-05-12' }),
      expect.objectContaining({ startDate: '2024-05-13', endDate: null }),
    ]);

    const second = await seedOnce();
    expect(second.account.project.id).toBe(first.account.project.id);
    expect(second.account.project.apiKey).toBe(first.account.project.apiKey);
    expect(second.written).toBe(first.written);
    expect(await overviewOf()).toEqual(overview);
    // Seeding again refreshes the definitions in place: none twice.
    const again = await definedOf();
    expect((await funnelsOf()).map((funnel) => funnel.id)).toEqual(funnels.map((funnel) => funnel.id));
    expect(again.goalConversions).toEqual(defined.goalConversions);
    expect(again.annotations).toEqual(defined.annotations);
  });
});
