/**
 * The incident queries the source-map tests read symbolicated frames through (the list with an optional
 * release filter, and one incident's detail with its latest occurrence's frames).
 */
export const DETAIL = `query Detail($projectId: ID!, $id: ID!) {
  incident(projectId: $projectId, id: $id) {
    id type title severity firstSeen lastSeen occurrences affectedUsers affectedWallets activeDays
    failedTransactions wallet code method status isRegression statusChangedAt
    firstRelease lastRelease resolvedInNextRelease resolvedInRelease assignee { userId email assignedAt } from to fingerprint
    lifetime { firstSeen lastSeen occurrences affectedUsers affectedWallets activeDays failedTransactions activeUsers reach }
    latest {
      eventId time userId sessionId wallet message stack code method path browser os country release
      walletState { gasBalanceWei gasBalance symbol nonce chainId network walletProvider }
      frames { minified mapped function file line column context { line text } }
      trail { time type description }
    }
  }
}`;
export const LIST = `query List($projectId: ID!, $release: String, $statuses: [IncidentStatus!]) {
  incidents(projectId: $projectId, release: $release, statuses: $statuses) {
    from to totalIncidents byStatus { open resolved ignored } transactionFailRate bySeverity { low mid high severe } matching nextCursor
    rows { id type title severity firstSeen lastSeen occurrences affectedUsers affectedWallets activeDays
      failedTransactions wallet code method status isRegression statusChangedAt
      firstRelease lastRelease resolvedInNextRelease resolvedInRelease assignee { userId email assignedAt } }
  }
}`;
