/**
 * The GraphQL questions of the zoned stage suites (analytics/time-zone-everywhere.test.ts,
 * wallets/zoned-stage-dst.test.ts): the lifecycle counts, the list by first seen, one wallet's stage.
 */
export const LIFECYCLE = `query L($projectId: ID!, $from: DateTime, $to: DateTime) {
  walletLifecycle(projectId: $projectId, from: $from, to: $to) {
    current { asOf new resurrected power active atRisk churned powerThreshold }
    previous { asOf new resurrected power active atRisk churned powerThreshold }
  }
}`;
export const LIST = `query List($projectId: ID!, $from: DateTime, $to: DateTime) {
  wallets(projectId: $projectId, from: $from, to: $to, sort: "first_seen", descending: false) {
    asOf powerThreshold rows { address stage }
  }
}`;
export const WALLET = `query W($projectId: ID!, $address: String!) {
  wallet(projectId: $projectId, address: $address) { stage }
}`;
