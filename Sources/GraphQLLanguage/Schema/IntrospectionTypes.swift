/// The introspection types every schema contains (`__Schema`, `__Type`, ...) and the directives
/// graphql-js 16 specifies (`@include`, `@skip`, `@deprecated`, `@specifiedBy`, `@oneOf`), as SDL.
///
/// They are parsed once, on first use, and added to every schema the builder makes.
enum IntrospectionTypes {
    /// The SDL of the introspection types and specified directives, as graphql-js 16 defines them.
    static let sdl = #"""
        directive @include(if: Boolean!) on FIELD | FRAGMENT_SPREAD | INLINE_FRAGMENT
        directive @skip(if: Boolean!) on FIELD | FRAGMENT_SPREAD | INLINE_FRAGMENT
        directive @deprecated(reason: String = "No longer supported")
          on FIELD_DEFINITION | ARGUMENT_DEFINITION | INPUT_FIELD_DEFINITION | ENUM_VALUE
        directive @specifiedBy(url: String!) on SCALAR
        directive @oneOf on INPUT_OBJECT

        type __Schema {
          description: String
          types: [__Type!]!
          queryType: __Type!
          mutationType: __Type
          subscriptionType: __Type
          directives: [__Directive!]!
        }

        type __Type {
          kind: __TypeKind!
          name: String
          description: String
          specifiedByURL: String
          fields(includeDeprecated: Boolean = false): [__Field!]
          interfaces: [__Type!]
          possibleTypes: [__Type!]
          enumValues(includeDeprecated: Boolean = false): [__EnumValue!]
          inputFields(includeDeprecated: Boolean = false): [__InputValue!]
          ofType: __Type
          isOneOf: Boolean
        }

        enum __TypeKind { SCALAR OBJECT INTERFACE UNION ENUM INPUT_OBJECT LIST NON_NULL }

        type __Field {
          name: String!
          description: String
          args(includeDeprecated: Boolean = false): [__InputValue!]!
          type: __Type!
          isDeprecated: Boolean!
          deprecationReason: String
        }

        type __InputValue {
          name: String!
          description: String
          type: __Type!
          defaultValue: String
          isDeprecated: Boolean!
          deprecationReason: String
        }

        type __EnumValue {
          name: String!
          description: String
          isDeprecated: Boolean!
          deprecationReason: String
        }

        type __Directive {
          name: String!
          description: String
          isRepeatable: Boolean!
          locations: [__DirectiveLocation!]!
          args(includeDeprecated: Boolean = false): [__InputValue!]!
        }

        enum __DirectiveLocation {
          QUERY MUTATION SUBSCRIPTION FIELD FRAGMENT_DEFINITION FRAGMENT_SPREAD INLINE_FRAGMENT
          VARIABLE_DEFINITION SCHEMA SCALAR OBJECT FIELD_DEFINITION ARGUMENT_DEFINITION INTERFACE UNION
          ENUM ENUM_VALUE INPUT_OBJECT INPUT_FIELD_DEFINITION
        }
        """#

    /// The parsed definitions; empty only if the constant above stopped parsing, which tests rule out.
    static let document: Document = (try? Parser.parse(Source(sdl, name: "introspection"), limits: .schemas))
        ?? Document(definitions: [])

    /// The introspection type definitions.
    static let definitions: [TypeDefinition] = document.definitions.compactMap {
        if case .type(let definition) = $0 { definition } else { nil }
    }

    /// The directives graphql-js 16 specifies.
    static let specifiedDirectives: [DirectiveDefinition] = document.definitions.compactMap {
        if case .directive(let definition) = $0 { definition } else { nil }
    }

    /// The names of the built-in scalars and introspection types, which SDL may use without defining.
    static let standardTypeNames: [String] = ["String", "Int", "Float", "Boolean", "ID"] + [
        "__Schema", "__Directive", "__DirectiveLocation", "__Type", "__Field", "__InputValue", "__EnumValue",
        "__TypeKind",
    ]
}
