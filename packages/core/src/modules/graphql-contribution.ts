/**
 * A module's part of the GraphQL schema, contributed through `app.graphql()` as routes are
 * through `app.route()`: its types, its fields of shared types (`extend type Query { … }`,
 * `Subscription`, `Blockchain`) and their resolvers, which receive a `GraphqlContext`.
 */
export interface GraphqlContribution {
  readonly typeDefs: string;
  /** Resolvers by type and field; a field without one reads the record's field of the same name. */
  readonly resolvers: Readonly<Record<string, object>>;
}
