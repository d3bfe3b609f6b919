/** Custom funnels' part of the GraphQL schema (docs/funnels.md); uses acquisition's AttributionDimension. */
export const funnelsTypeDefs = /* GraphQL */ `
  "One step of a custom funnel's answer."
  type CustomFunnelStep {
    "1-based position."
    index: Int!
    "The step in words: Page /pricing, Event swap (pair = ETH/USDC), Wallet connected, Transaction confirmed."
    label: String!
    "Users who completed steps 1 to index in order, within the window after step 1."
    users: Int!
    "users / step 1's users (0 to 1)."
    conversion: Float!
    "users / the previous step's users (0 to 1)."
    stepConversion: Float!
    "The previous step's users who did not reach this step."
    dropOff: Int!
  }

  "One landing value of the split dimension (value null: unattributed)."
  type CustomFunnelSplitRow {
    value: String
    "Users per step, in step order."
    users: [Int!]!
    "Last step's users / step 1's users."
    conversion: Float!
  }

  type CustomFunnelResult {
    funnelId: ID!
    name: String!
    windowHours: Int!
    from: DateTime!
    to: DateTime!
    steps: [CustomFunnelStep!]!
    "The dimension asked for, or null."
    split: AttributionDimension
    "With split: one row per landing value of step 1's session, most users at step 1 first (at most 50)."
    splitRows: [CustomFunnelSplitRow!]!
  }

  extend type Query {
    "A saved funnel's answer over the range: users whose step 1 is in the range (docs/funnels.md)."
    customFunnel(
      projectId: ID!
      funnelId: ID!
      from: DateTime
      to: DateTime
      split: AttributionDimension
    ): CustomFunnelResult!
  }
`;
