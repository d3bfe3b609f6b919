/** The goals' part of the GraphQL schema (docs/goals.md). */
export const goalsTypeDefs = /* GraphQL */ `
  "A goal: a custom event (optionally with one property's value) or a page path pattern."
  type Goal {
    id: ID!
    name: String!
    "event or path"
    kind: String!
    eventName: String
    propertyKey: String
    propertyValue: String
    pathPattern: String
  }

  "One goal's figures over a range."
  type GoalConversion {
    goal: Goal!
    "Distinct users with an event matching the goal in the range."
    conversions: Int!
    "conversions / users with any event in the range; null when there are none."
    rate: Float
  }

  type GoalConversions {
    "Distinct users with any event in the range (the rates' denominator)."
    users: Int!
    goals: [GoalConversion!]!
  }

  "One attribution row's converting users of a goal; value null: Unattributed, or the Total row (isTotal)."
  type GoalAttributionRow {
    isTotal: Boolean!
    value: String
    conversions: Int!
  }

  type GoalAttribution {
    goal: Goal!
    rows: [GoalAttributionRow!]!
  }

  extend type Query {
    "The project's goals, oldest first."
    goals(projectId: ID!): [Goal!]!
    "Every goal's conversions over [from, to); previous: true answers for the period before."
    goalConversions(projectId: ID!, from: DateTime, to: DateTime, previous: Boolean): GoalConversions!
    "One goal's converting users per landing value of dimension, as the attribution table's rows, with its filters."
    goalAttribution(
      projectId: ID!
      goalId: ID!
      dimension: AttributionDimension!
      from: DateTime
      to: DateTime
      filters: AcquisitionFilters
      previous: Boolean = false
    ): GoalAttribution!
  }
`;
