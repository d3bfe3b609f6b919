/**
 * The analytics part of the GraphQL schema. Times are DateTime (src/reading/date-time.ts). Every query takes the project's id and answers only its owner. Definitions of
 * every figure: docs/analytics.md. Result shapes for the console: @polyflow/contracts/analytics.
 *
 * `previous: true` on the overview and the series answers the same question over the previous period of
 * the range (docs/analytics.md, "The previous period"; docs/decisions/017-previous-period.md): series
 * buckets then start at the previous period's start, so bucket i lines up with the range's bucket i.
 */
export const analyticsTypeDefs = /* GraphQL */ `
  "The Analytics screen's filters (docs/analytics.md, Filters). Each list means 'any of these values'; lists combine with AND; absent or empty lists do not filter. A session passes a list when one of its events in the range carries one of the values (referrers: when its first page view in the range came from one of the domains); a filtered figure is asked of the events of the sessions that pass (a transaction: of its request's session)."
  input AnalyticsFilters {
    countries: [String!]
    browsers: [String!]
    oses: [String!]
    devices: [String!]
    walletProviders: [String!]
    chains: [ChainId!]
    sources: [String!]
    mediums: [String!]
    campaigns: [String!]
    pages: [String!]
    referrers: [String!]
  }

  "A count over [from, to); 0 when nothing happened in it."
  type TimeBucket {
    from: DateTime!
    to: DateTime!
    value: Float!
  }

  "An average over [from, to); null when the bucket holds nothing to average."
  type AverageBucket {
    from: DateTime!
    to: DateTime!
    value: Float
  }

  type ActiveWalletsTrend {
    current: Float!
    previous: Float!
    "(current - previous) / previous; null when the previous period had no active wallet."
    change: Float
    previousFrom: DateTime!
    previousTo: DateTime!
  }

  type AnalyticsOverview {
    from: DateTime!
    to: DateTime!
    totalTransactions: Float!
    connectedWallets: Float!
    newWallets: Float!
    submittedTransactions: Float!
    failedTransactions: Float!
    "The fail rate's denominator: submitted transactions plus those that failed before submission."
    attemptedTransactions: Float!
    "0..1 (failedTransactions / attemptedTransactions); null when no transaction was attempted."
    transactionFailRate: Float
    dailyActiveWallets: Float!
    averageTransactionsPerUserPerDay: Float
    dailyActiveWalletsTrend: ActiveWalletsTrend!
  }

  type ContractFunctionCalls {
    chainId: ChainId
    contract: String!
    selector: String!
    "Signature of a well-known selector, e.g. transfer(address,uint256); null otherwise."
    functionName: String
    calls: Float!
  }

  "A slice of a chart: key null means unknown."
  type Share {
    key: String
    value: Float!
  }

  enum TransactionType {
    Coin
    Contract
  }

  enum TransactionStatus {
    requested
    rejected
    failed
    submitted
    confirmed
    reverted
    replaced
    dropped
  }

  type TransactionRow {
    id: String!
    hash: String
    time: DateTime!
    wallet: String
    type: TransactionType!
    status: TransactionStatus!
    chainId: ChainId
    country: String
    browser: String
  }

  type TransactionPage {
    rows: [TransactionRow!]!
    "Transactions in the range that the search and filters keep, over every page (unfiltered: the overview's totalTransactions)."
    total: Float!
    "Pass as after for the next (older) page; null on the last page."
    nextCursor: String
  }

  type TransactionStage {
    stage: TransactionStatus!
    time: DateTime!
    errorCode: Int
    errorMessage: String
  }

  "How a receipt's transaction ended on chain."
  enum ReceiptStatus {
    confirmed
    reverted
  }

  "One receipt: a confirmed or reverted stage with gas used and an effective gas price, as last reported for its hash. A batch mined as several transactions has one each."
  type TransactionReceipt {
    hash: String
    status: ReceiptStatus!
    "When the receipt was (last) reported."
    time: DateTime!
    blockNumber: String
    gasUsed: String!
    effectiveGasPrice: String!
    "Wei: gas used × effective gas price."
    fee: String!
    explorerUrl: String
  }

  "Amounts (wei, gas, nonces, blocks) are decimal strings."
  type TransactionDetail {
    id: String!
    hash: String
    time: DateTime!
    wallet: String
    type: TransactionType!
    status: TransactionStatus!
    chainId: ChainId
    country: String
    browser: String
    from: String
    to: String
    value: String
    selector: String
    functionName: String
    nonce: String
    gasLimit: String
    gasPrice: String
    maxFeePerGas: String
    maxPriorityFeePerGas: String
    gasUsed: String
    effectiveGasPrice: String
    fee: String
    blockNumber: String
    walletProvider: String
    os: String
    path: String
    explorerUrl: String
    "Why a reverted or failed transaction did not go through: the failing stage's error, else a wallet error about a revert in the same session from 1 min before its request to 10 s after its outcome."
    revertReason: String
    stages: [TransactionStage!]!
    "Its receipts, each hash once at its latest report, in the order of those reports; fee is their sum."
    receipts: [TransactionReceipt!]!
  }

  "A row of the top pages table: what happened on one path in the range."
  type PageRow {
    path: String!
    "Distinct users with a page view of the path."
    users: Float!
    "Distinct wallets connected on a page with this path."
    wallets: Float!
    "Transactions first requested in the range whose first stage was logged on this path."
    transactions: Float!
  }

  "A row of the top referrers table: sessions by the domain their first page view in the range came from."
  type ReferrerRow {
    "Host of the referrer, lower case, without www.; null for direct (no referrer, or the dapp's own host)."
    domain: String
    "Distinct users with such a session."
    users: Float!
    "Distinct wallets connected in the range in those sessions."
    wallets: Float!
    "Transactions first requested in the range in those sessions."
    transactions: Float!
  }

  "The Live screen's tiles: the current minute and the 29 before it."
  type LiveActivity {
    from: DateTime!
    to: DateTime!
    "Distinct users with any event in [from, to)."
    activeUsers: Float!
    "Distinct wallets carried by any event in [from, to)."
    activeWallets: Float!
    "Events per minute, 30 buckets, the current (partial) minute last."
    eventsPerMinute: [TimeBucket!]!
  }

  extend type Query {
    "Distinct wallets connected, each in the bucket of its first connection in the range."
    totalConnectedWallets(projectId: ID!, from: DateTime, to: DateTime, granularity: String, previous: Boolean = false, filters: AnalyticsFilters): [TimeBucket!]!
    "Transactions of any status, in the bucket of their request."
    totalTransactions(projectId: ID!, from: DateTime, to: DateTime, granularity: String, previous: Boolean = false, filters: AnalyticsFilters): [TimeBucket!]!
    "Connected wallets never seen in the project before from."
    totalNewWallets(projectId: ID!, from: DateTime, to: DateTime, granularity: String, previous: Boolean = false, filters: AnalyticsFilters): [TimeBucket!]!
    "Transactions whose latest stage is reverted or failed, in the bucket of their request."
    failedTransactions(projectId: ID!, from: DateTime, to: DateTime, granularity: String, previous: Boolean = false, filters: AnalyticsFilters): [TimeBucket!]!
    "Mean effective gas price in wei of the transactions mined in each bucket (optionally on one chain)."
    averageGasPrice(projectId: ID!, from: DateTime, to: DateTime, granularity: String, chainId: ChainId, previous: Boolean = false, filters: AnalyticsFilters): [AverageBucket!]!
    "Every tile of the overview card at once. previous: true answers the same tiles for the previous period."
    analyticsOverview(projectId: ID!, from: DateTime, to: DateTime, previous: Boolean = false, filters: AnalyticsFilters): AnalyticsOverview!
    "Most called contract functions (submitted transactions), at most limit (1-100) rows."
    contractFunctions(projectId: ID!, from: DateTime, to: DateTime, limit: Int = 10, filters: AnalyticsFilters): [ContractFunctionCalls!]!
    "Distinct connected wallets per wallet provider."
    walletProviders(projectId: ID!, from: DateTime, to: DateTime, filters: AnalyticsFilters): [Share!]!
    "Distinct users per country (ISO 3166-1 alpha-2), at most limit (1-250) rows."
    countries(projectId: ID!, from: DateTime, to: DateTime, limit: Int = 10, filters: AnalyticsFilters): [Share!]!
    "Distinct users per browser, at most limit (1-250) rows."
    browsers(projectId: ID!, from: DateTime, to: DateTime, limit: Int = 10, filters: AnalyticsFilters): [Share!]!
    "Distinct users per operating system (from the User-Agent), at most limit (1-250) rows."
    operatingSystems(projectId: ID!, from: DateTime, to: DateTime, limit: Int = 10, filters: AnalyticsFilters): [Share!]!
    "Distinct users per device type (desktop, mobile, tablet; from the User-Agent), at most limit (1-250) rows."
    devices(projectId: ID!, from: DateTime, to: DateTime, limit: Int = 10, filters: AnalyticsFilters): [Share!]!
    "Distinct users per landing UTM source (key null: none), at most limit (1-250) rows."
    sources(projectId: ID!, from: DateTime, to: DateTime, limit: Int = 10, filters: AnalyticsFilters): [Share!]!
    "Paths by users, most first, at most limit (1-100) rows."
    topPages(projectId: ID!, from: DateTime, to: DateTime, limit: Int = 10, filters: AnalyticsFilters): [PageRow!]!
    "Referrer domains by users, most first (direct last on ties), at most limit (1-100) rows."
    topReferrers(projectId: ID!, from: DateTime, to: DateTime, limit: Int = 10, filters: AnalyticsFilters): [ReferrerRow!]!
    "Users, wallets and events per minute of the last 30 minutes (the Live screen)."
    liveActivity(projectId: ID!): LiveActivity!
    """
    Transactions newest first; first 1-100 rows after the cursor. search: a hash or wallet, or its first 6 or more
    hex digits (0x optional, any case); status, type, contract (address) and selector (0x and 8 hex digits) keep
    only such transactions; filters (the Analytics screen's) keeps those whose request's session passes them;
    total counts what they keep.
    """
    transactionHistory(projectId: ID!, from: DateTime, to: DateTime, first: Int = 25, after: String, search: String, status: String, type: String, contract: String, selector: String, filters: AnalyticsFilters): TransactionPage!
    "One transaction by its hash or by its id (TransactionRow.id); null when the project has none such."
    transaction(projectId: ID!, hash: String, id: String): TransactionDetail
  }
`;
