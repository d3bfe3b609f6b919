/** The Events screen's part of the GraphQL schema (docs/custom-events.md). */
export const customEventsTypeDefs = /* GraphQL */ `
  "A custom event name's figures over a range."
  type CustomEventCount {
    name: String!
    "Custom events of this name."
    events: Int!
    "Distinct users: the app's user id once identified, else the SDK user."
    users: Int!
  }

  "One value of a custom event's property; value null: events without the property."
  type CustomEventBreakdownRow {
    value: String
    events: Int!
    users: Int!
  }

  "One calendar day (YYYY-MM-DD in the asked time zone) of a custom event."
  type CustomEventDay {
    day: String!
    events: Int!
    users: Int!
  }

  extend type Query {
    "Custom events by name, most first; previous: true answers for the period before."
    customEvents(projectId: ID!, from: DateTime, to: DateTime, previous: Boolean): [CustomEventCount!]!
    "One custom event by the values of one property, most events first, at most limit (1-100) rows."
    customEventBreakdown(
      projectId: ID!
      from: DateTime
      to: DateTime
      name: String!
      key: String!
      limit: Int = 20
    ): [CustomEventBreakdownRow!]!
    "One custom event per calendar day of timeZone (IANA, default UTC), every day of the range."
    customEventSeries(projectId: ID!, from: DateTime, to: DateTime, name: String!, timeZone: String): [CustomEventDay!]!
  }
`;
