/// A schema and operations chosen to trip name handling: Swift keywords as field, argument,
/// enum value and input member names; types named like Swift's own; a self-containing input;
/// enum values whose camel-case forms collide; nested selections named like top-level types.
enum AwkwardSchema {
    static let sdl = """
        "Root."
        type Query {
          "A thing, maybe."
          thing(in: Filter, default: Int = 3, kinds: [Kind!] = SELF, where: Where = {self: TYPE, and: [{self: INIT}]}): Thing
          node(id: ID!): Node
          string: Text
          data: [Thing]
          Genre: Kind
          error: Error
          search(text: String): [Any!]
        }

        type Mutation {
          update(input: Filter!): Thing!
        }

        interface Node { id: ID! }

        type Thing implements Node {
          id: ID!
          default: String
          self: Int
          Type: Boolean!
          init: [[Int!]]!
          kind: Kind
          status: Status!
          extra: Text
        }

        type Text implements Node { id: ID! body: String! }

        union Any = Thing | Text

        "Kinds, with values that are Swift keywords."
        enum Kind { SELF TYPE INIT DEFAULT RAW_VALUE }

        "Values whose camel case forms collide."
        enum Status { OPEN_NOW openNow CLOSED }

        enum Error { A B }

        input Filter {
          in: [String!]
          default: Boolean = true
          next: Filter
          status: Status = OPEN_NOW
        }

        input Where {
          self: Kind
          and: [Where!]
          text: String = "a \\"quoted\\" \\\\ value"
        }
        """

    static let operations = """
        query Things($in: Filter, $default: Int = 3, $kinds: [Kind!] = [SELF, TYPE], $flag: Boolean = false,
                     $where: Where = {self: DEFAULT, text: "x"}) {
          thing(in: $in, default: $default, kinds: $kinds, where: $where) {
            ...thingFields
            default
            self
            Type
            init
            kind @include(if: $flag)
            string: extra { body }
          }
          node(id: "1") {
            id
            ... on Thing { status }
            ...textFields
          }
          string { body ... on Node { id } }
          data { id }
          Genre
          error
          search(text: \"""block "quoted" text\""") {
            ... on Thing { id }
            ... on Text { body }
          }
        }

        fragment thingFields on Thing {
          id
          kind
        }

        fragment textFields on Text {
          body
        }

        mutation Update($input: Filter!) {
          update(input: $input) { id }
        }
        """
}
