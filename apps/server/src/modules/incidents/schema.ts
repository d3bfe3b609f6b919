/**
 * The incident part of the GraphQL schema (uses analytics' DateTime scalar). Every query takes the project's
 * id and answers only its owner. Grouping, severity rules and figures: docs/acquisition-and-incidents.md.
 * Result shapes for the console: @polyflow/contracts/incidents.
 */
export const incidentTypeDefs = /* GraphQL */ `
  enum Severity {
    low
    mid
    high
    severe
  }

  "Open (default), resolved (comes back as open, a regression, when it occurs again) or ignored."
  enum IncidentStatus {
    open
    resolved
    ignored
  }

  "The error's source: window = uncaught error, promise = unhandled rejection, wallet = failed wallet call."
  enum IncidentType {
    window
    promise
    wallet
  }

  "The member an incident is assigned to: always a current member (a member who leaves loses it)."
  type IncidentAssignee {
    userId: ID!
    "The member's current email."
    email: String!
    assignedAt: DateTime!
  }

  type IncidentRow {
    "Stable: derived from the project and the fingerprint."
    id: ID!
    type: IncidentType!
    "The latest occurrence's message."
    title: String!
    severity: Severity!
    "The first occurrence ever."
    firstSeen: DateTime!
    "The last occurrence in the range (the table's Time)."
    lastSeen: DateTime!
    occurrences: Float!
    affectedUsers: Float!
    affectedWallets: Float!
    "Distinct UTC days with an occurrence in the range."
    activeDays: Float!
    "Failed or reverted transactions of the same session within 10 s of an occurrence that is a wallet's failure to send one."
    failedTransactions: Float!
    "The most recently affected wallet address."
    wallet: String
    "RPC error code (wallet errors)."
    code: Float
    "The wallet method that failed (wallet errors)."
    method: String
    "As of now: a resolved incident that occurred again is open, with isRegression."
    status: IncidentStatus!
    isRegression: Boolean!
    "When it was last resolved or ignored."
    statusChangedAt: DateTime
    "Null when unassigned."
    assignee: IncidentAssignee
  }

  type StatusCounts {
    open: Float!
    resolved: Float!
    ignored: Float!
  }

  "The incident's whole life, whatever the range: what severity is decided from."
  type IncidentLifetime {
    firstSeen: DateTime!
    lastSeen: DateTime!
    occurrences: Float!
    affectedUsers: Float!
    affectedWallets: Float!
    activeDays: Float!
    failedTransactions: Float!
    "Distinct users of the project with an event between the first and the last occurrence's UTC days."
    activeUsers: Float!
    "affectedUsers / activeUsers."
    reach: Float!
  }

  type SeverityCounts {
    low: Float!
    mid: Float!
    high: Float!
    severe: Float!
  }

  type IncidentList {
    from: DateTime!
    to: DateTime!
    "Incidents with an occurrence in the range and one of the chosen statuses (search and severity filter ignored)."
    totalIncidents: Float!
    "Incidents with an occurrence in the range, per status (every filter ignored)."
    byStatus: StatusCounts!
    "0..1, as on the Analytics screen: reverted or failed among attempted; null without transactions."
    transactionFailRate: Float
    bySeverity: SeverityCounts!
    "Incidents matching the search and severity filter, over all pages."
    matching: Float!
    "Most recent first."
    rows: [IncidentRow!]!
    "Pass as after for the next page; null on the last page."
    nextCursor: String
  }

  type WalletState {
    "Wei (the chain's smallest unit), decimal string."
    gasBalanceWei: String
    "Formatted with the chain's symbol, e.g. 0.25 ETH, 137.5 POL."
    gasBalance: String
    symbol: String
    nonce: String
    chainId: ChainId
    "Network name from the chain id, e.g. Ethereum, Polygon, Anvil (local), Chain 12345."
    network: String
    walletProvider: String
  }

  type TrailEvent {
    time: DateTime!
    "The event's type: page_view, wallet_connected, tx, signature, error, ..."
    type: String!
    description: String!
  }

  type IncidentOccurrence {
    eventId: String!
    time: DateTime!
    userId: String!
    sessionId: String!
    wallet: String
    walletState: WalletState!
    message: String!
    stack: String
    code: Float
    method: String
    path: String
    browser: String
    os: String
    country: String
    "Up to 20 events of the same session before the occurrence, oldest first."
    trail: [TrailEvent!]!
  }

  type IncidentDetail {
    id: ID!
    type: IncidentType!
    title: String!
    severity: Severity!
    firstSeen: DateTime!
    lastSeen: DateTime!
    occurrences: Float!
    affectedUsers: Float!
    affectedWallets: Float!
    activeDays: Float!
    failedTransactions: Float!
    wallet: String
    code: Float
    method: String
    status: IncidentStatus!
    isRegression: Boolean!
    statusChangedAt: DateTime
    assignee: IncidentAssignee
    from: DateTime!
    to: DateTime!
    "What grouped the occurrences: type|normalised message|file:function, or wallet|code=…|method=…."
    fingerprint: String!
    lifetime: IncidentLifetime!
    "The latest occurrence in the range, with the wallet state and the session's trail."
    latest: IncidentOccurrence!
  }

  extend type Query {
    "Incidents with an occurrence in [from, to) (default: the last 7 days), searched on the server, paginated."
    incidents(
      projectId: ID!
      from: DateTime
      to: DateTime
      "Matches wallet address, type, error message or stack, method, RPC code (exact) or incident id (exact)."
      search: String
      severities: [Severity!]
      "Default: open only (resolved and ignored incidents leave the default list)."
      statuses: [IncidentStatus!]
      first: Int = 25
      after: String
      "A member's user id, me (the caller; a console session only) or none (unassigned). Acts like the severity filter."
      assignee: String
    ): IncidentList!
    "One incident over [from, to) (all time without them); null when the project has none such."
    incident(projectId: ID!, id: ID!, from: DateTime, to: DateTime): IncidentDetail
  }

  extend type Mutation {
    "Resolve, ignore or reopen (status: open) an incident of your project; answers the incident as of now."
    setIncidentStatus(projectId: ID!, id: ID!, status: IncidentStatus!): IncidentRow!
    "Assign an incident to a current member (userId), or unassign it (userId null). Admins and the owner assign anyone; a viewer may take an unassigned incident for themselves and give up their own."
    assignIncident(projectId: ID!, id: ID!, userId: ID): IncidentRow!
  }
`;
