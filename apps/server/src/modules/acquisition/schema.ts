/**
 * The acquisition part of the GraphQL schema (uses analytics' DateTime scalar). Every query takes the
 * project's id and answers only its owner. Definitions: docs/acquisition-and-incidents.md. Result shapes
 * for the console: @polyflow/contracts/acquisition. Without from/to a query covers all time.
 */
export const acquisitionTypeDefs = /* GraphQL */ `
  "The filter bar. Each list means 'any of these values'; lists combine with AND; absent or empty lists do not filter. A session passes a list when one of its events in the range carries one of the values."
  input AcquisitionFilters {
    countries: [String!]
    terms: [String!]
    sources: [String!]
    mediums: [String!]
    campaigns: [String!]
    contents: [String!]
    browsers: [String!]
    walletProviders: [String!]
  }

  enum AttributionDimension {
    campaign
    source
    medium
    content
    term
  }

  enum FunnelStepKey {
    totalUsers
    haveWallets
    haveConnectedWallet
    haveExecutedTransaction
    haveExecutedMultipleTransactions
    signedData
  }

  type FunnelStep {
    key: FunnelStepKey!
    "The tile's title, e.g. Have Connected Wallet."
    label: String!
    "Distinct users (the SDK's anonymous user id)."
    users: Float!
    "users / Total Users, 0..1; null when there are no users."
    share: Float
  }

  type AcquisitionFunnel {
    from: DateTime!
    to: DateTime!
    "The six tiles, in order."
    steps: [FunnelStep!]!
  }

  enum AttributionRowKind {
    total
    value
    unattributed
  }

  type AttributionRow {
    kind: AttributionRowKind!
    "The UTM value; null for Total and Unattributed."
    value: String
    "+ Wallets: wallets whose first connection ever happened in the range, in a session of this row."
    newWallets: Float!
    "Connects: wallet connections."
    connects: Float!
    "TXS: transactions that reached submitted."
    transactions: Float!
    sessions: Float!
    users: Float!
    sessionsWithTransaction: Float!
    usersWithTransaction: Float!
    sessionsWithConnect: Float!
    usersWithConnect: Float!
    "TX(S) %: sessionsWithTransaction / sessions, 0..1."
    transactionSessionRate: Float
    "TX(U) %: usersWithTransaction / users, 0..1."
    transactionUserRate: Float
    "WConn(S) %: sessionsWithConnect / sessions, 0..1."
    connectSessionRate: Float
    "WConn(U) %: usersWithConnect / users, 0..1."
    connectUserRate: Float
  }

  type Attribution {
    dimension: AttributionDimension!
    from: DateTime!
    to: DateTime!
    "Total, then one row per value (most sessions first), then Unattributed. The console sorts by column."
    rows: [AttributionRow!]!
  }

  type FilterOption {
    value: String!
    "Distinct users with an event carrying the value in the range."
    users: Float!
  }

  type AcquisitionFilterOptions {
    countries: [FilterOption!]!
    terms: [FilterOption!]!
    sources: [FilterOption!]!
    mediums: [FilterOption!]!
    campaigns: [FilterOption!]!
    contents: [FilterOption!]!
    browsers: [FilterOption!]!
    walletProviders: [FilterOption!]!
  }

  extend type Query {
    "The funnel of distinct users over [from, to) (all time without them), filtered by the filter bar. previous: true answers for the previous period."
    acquisitionFunnel(
      projectId: ID!
      from: DateTime
      to: DateTime
      filters: AcquisitionFilters
      previous: Boolean = false
    ): AcquisitionFunnel!
    "Sessions grouped by their landing UTM value of one dimension, with the same filters. previous: true answers for the previous period."
    attribution(
      projectId: ID!
      dimension: AttributionDimension!
      from: DateTime
      to: DateTime
      filters: AcquisitionFilters
      previous: Boolean = false
    ): Attribution!
    "The values the filter bar's multi-selects offer in the range, most users first (at most 200 each)."
    acquisitionFilterOptions(projectId: ID!, from: DateTime, to: DateTime): AcquisitionFilterOptions!
  }
`;
