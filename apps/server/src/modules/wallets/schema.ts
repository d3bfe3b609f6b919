/**
 * The wallet part of the GraphQL schema (uses the DateTime scalar). Every query takes the project's id and
 * answers only a reader of it (owner, member, read token); another project looks absent. Definitions of every
 * figure: docs/wallets.md. Stages, sorts and switches are strings, so that an unknown one answers
 * BAD_USER_INPUT with the accepted values.
 */
export const walletTypeDefs = /* GraphQL */ `
  "Gas of one chain, in wei as decimal strings."
  type WalletChainGas {
    chainId: ChainId
    "Σ gas_used × effective_gas_price of the receipts (confirmed or reverted)."
    gasPaidWei: String!
    "The same over the reverted receipts alone: paid for nothing."
    gasBurnedWei: String!
    "gasBurnedWei / gasPaidWei (6 decimals); null when nothing was paid."
    burnedShare: Float
    reverted: Int!
    "Refused before submission (a failed stage): no gas."
    failedBeforeSubmission: Int!
  }

  type WalletFirstTouch {
    source: String
    medium: String
    campaign: String
    referrer: String
    landingPath: String
  }

  "One event of one of the wallet's sessions; big numbers as decimal strings."
  type WalletTimelineEvent {
    eventId: ID!
    time: DateTime!
    type: String!
    "A custom event's name (\`polyflow.track(name)\`); null for other types."
    eventName: String
    path: String
    walletAddress: String
    walletProvider: String
    chainId: ChainId
    txId: String
    txStage: String
    txHash: String
    txTo: String
    selector: String
    gasUsed: String
    effectiveGasPrice: String
    sigStage: String
    sigMethod: String
    errorSource: String
    errorMessage: String
    errorCode: Int
    rpcMethod: String
    "The incident of an error event (link to it)."
    incidentId: String
    "The wallet's state when an error hit."
    gasBalance: String
    walletNonce: String
  }

  type WalletSession {
    sessionId: String!
    startedAt: DateTime!
    endedAt: DateTime!
    events: [WalletTimelineEvent!]!
  }

  "A wallet's page, all time."
  type Wallet {
    "Lower case."
    address: String!
    firstSeen: DateTime!
    lastSeen: DateTime!
    firstConnected: DateTime
    "The landing of the session of its first event."
    firstTouch: WalletFirstTouch
    countries: [String!]!
    browsers: [String!]!
    providers: [String!]!
    chains: [Int!]!
    sessionCount: Int!
    transactions: Int!
    "Transactions whose latest stage is failed (refused before submission)."
    failedBeforeSubmission: Int!
    "Transactions whose latest stage is reverted (on chain: gas paid)."
    reverted: Int!
    gas: [WalletChainGas!]!
    "NEW, RESURRECTED, POWER, ACTIVE, AT_RISK or CHURNED, as of today."
    stage: String
    "Its newest 10 sessions, newest first, each with its events oldest first (2,000 events at most)."
    sessions: [WalletSession!]!
    "Cursor of the older sessions (walletSessions' after); null when these are all."
    olderSessions: String
  }

  "A page of a wallet's older sessions."
  type WalletSessionPage {
    "The next 10 sessions after the cursor, newest first, as Wallet.sessions."
    sessions: [WalletSession!]!
    "Cursor of the sessions after these; null when these are the oldest."
    nextCursor: String
  }

  type WalletListRow {
    address: String!
    firstSeen: DateTime!
    "Its latest event in the range."
    lastSeen: DateTime!
    "Transactions it requested in the range."
    transactions: Int!
    "Of those, latest stage failed or reverted."
    failed: Int!
    "Gas their receipts paid, wei summed over chains."
    gasPaidWei: String!
    stage: String!
    "Landing UTM source and campaign of its first event ever."
    source: String
    campaign: String
  }

  type WalletList {
    from: DateTime!
    to: DateTime!
    "The lifecycle's as-of day (YYYY-MM-DD)."
    asOf: String!
    powerThreshold: Int
    rows: [WalletListRow!]!
    nextCursor: String
  }

  type LifecycleCounts {
    "The as-of day (YYYY-MM-DD)."
    asOf: String!
    new: Int!
    resurrected: Int!
    power: Int!
    active: Int!
    atRisk: Int!
    churned: Int!
    "Active days of the last 28 from which a recently active wallet is Power; null when none is."
    powerThreshold: Int
  }

  type WalletLifecycle {
    current: LifecycleCounts!
    "As of the day one range length earlier."
    previous: LifecycleCounts!
  }

  type RetentionCohort {
    start: DateTime!
    end: DateTime!
    size: Int!
    "returned[k-1]: wallets of the cohort that returned in period k (1-12); null before the period starts."
    returned: [Int]!
    shares: [Float]!
  }

  type RetentionCohorts {
    "DAY (ranges under 30 days) or WEEK."
    granularity: String!
    periods: Int!
    cohorts: [RetentionCohort!]!
  }

  type FailedCostRow {
    "Day of the project's time zone of the reverted receipts (YYYY-MM-DD)."
    day: String!
    chainId: ChainId
    contract: String
    selector: String
    "The function's signature when the selector is a well-known one (as contractFunctions names it), else null."
    functionName: String
    reverted: Int!
    gasBurnedWei: String!
  }

  type FailedTransactionCost {
    chains: [WalletChainGas!]!
    rows: [FailedCostRow!]!
  }

  extend type Query {
    "One wallet (any case; answered lower case); null when no event of the project carried it."
    wallet(projectId: ID!, address: String!): Wallet
    "The wallet's sessions older than a cursor (Wallet.olderSessions, or a page's nextCursor)."
    walletSessions(projectId: ID!, address: String!, after: String!): WalletSessionPage!
    "Wallets seen in [from, to) (all time: its last 400 days), filtered, sorted, paged."
    wallets(
      projectId: ID!
      from: DateTime
      to: DateTime
      "A full address or its first 6 or more hexadecimal characters."
      search: String
      stage: String
      source: String
      campaign: String
      chainId: ChainId
      country: String
      "last_seen (default), first_seen, transactions, failed or gas_paid."
      sort: String
      descending: Boolean = true
      first: Int = 50
      after: String
      "The Analytics screen's filters: only the wallets an event of a passing session carried in [from, to)."
      filters: AnalyticsFilters
    ): WalletList!
    "Wallets per lifecycle stage as of the range's last day, and as of one range length before."
    walletLifecycle(
      projectId: ID!
      from: DateTime
      to: DateTime
      "The Analytics screen's filters: only the wallets an event of a passing session carried in [from, to)."
      filters: AnalyticsFilters
    ): WalletLifecycle!
    "Cohorts by first connection in [from, to) and their returns in the 12 periods after."
    retentionCohorts(
      projectId: ID!
      from: DateTime
      to: DateTime
      "connected (default) or transacted."
      returnBy: String
      "source, medium or campaign."
      splitDimension: String
      "The landing value (null: none)."
      splitValue: String
      "The Analytics screen's filters: only the wallets whose first connection was in a passing session."
      filters: AnalyticsFilters
    ): RetentionCohorts!
    "Gas burned by reverted transactions logged in [from, to), and the share of all gas paid."
    failedTransactionCost(
      projectId: ID!
      from: DateTime
      to: DateTime
      "The Analytics screen's filters: only the transactions whose request's session passes them."
      filters: AnalyticsFilters
    ): FailedTransactionCost!
  }
`;
