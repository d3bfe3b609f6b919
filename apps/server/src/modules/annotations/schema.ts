/** Annotations' part of the GraphQL schema (docs/timezone.md#annotations): a read field for every reader. */
export const annotationsTypeDefs = /* GraphQL */ `
  "A dated note on a project's time charts: a deploy, a campaign, an outage."
  type Annotation {
    id: ID!
    "1-280 characters; line breaks allowed."
    text: String!
    "First day it covers, YYYY-MM-DD of the project's time zone."
    startDate: String!
    "Last day it covers (included); null: the start date alone."
    endDate: String
    "The member who added it (email); null when a read token asks (tokens see no members)."
    createdBy: String
    createdAt: DateTime!
  }

  extend type Query {
    """
    The project's annotations by start date (then creation), those whose days meet the range's local days
    (from and to as every dashboard query takes them; without them, all). Sessions and read tokens.
    """
    annotations(projectId: ID!, from: DateTime, to: DateTime): [Annotation!]!
  }
`;
