// The GraphQL language layer arrives here.
