import GraphQLLanguage

extension GraphQLRequest {
    /// Makes the request of a generated operation: its variables are the value's properties,
    /// encoded as JSON under their declared names (a `nil` optional left out, then filled by the
    /// definition's `variableDefaults` when it declares a default). Nothing is parsed and the
    /// variables are not checked again: the generator checked their types. The value's
    /// `uploads` are sent as `init(operation:variables:uploads:options:settings:)` sends files:
    /// a multipart POST by the GraphQL multipart request specification, `null` in the variables
    /// at each file's place.
    ///
    /// ```swift
    /// let request = try GraphQLRequest(GetTrackQuery(id: "42"))
    /// let track = try await provider.send(request)   // GraphQLResponse<GetTrackQuery.Data>
    /// ```
    ///
    /// - Parameters:
    ///   - operation: the operation with its variables.
    ///   - options: this request's settings.
    ///   - settings: the provider-wide settings; `nil` takes those of the provider that sends
    ///     the request.
    ///   - encoding: how the variables are written (dates, say); `Provider.fetch` uses the
    ///     provider's `jsonEncoding`. Its key strategy is not used: the properties are named
    ///     after the variables and input fields, which must keep their names.
    /// - Throws: `GatewayError` of kind `.invalidVariables` when the value does not encode as a
    ///   JSON object (a variable's own `encode(to:)` threw, or a number JSON cannot carry), or
    ///   when an upload's path is not a place that holds `null` in the encoded variables.
    public init<Operation: GraphQLOperationType>(
        _ operation: Operation, options: GraphQLRequestOptions = GraphQLRequestOptions(),
        settings: GraphQLSettings? = nil, encoding: JSONEncodingOptions = JSONEncodingOptions()
    ) throws where Operation.Data == Decoded {
        let definition = Operation.definition
        var declaredNames = encoding
        declaredNames.keys = .useDefaultKeys
        var variables: GraphQLVariables
        let slots = Self.slots(operation.uploads)
        do {
            variables = try GraphQLVariables(encoding: operation, options: declaredNames)
            for slot in slots {
                try Self.checkPlaceholder(at: slot.path, in: variables)
            }
        } catch var error as GatewayError {
            error.endpoint = definition.label
            throw error
        }
        for member in definition.variableDefaults where variables[member.key] == nil {
            variables[member.key] = member.value
        }
        self.init(operation: Operation.operation, uncheckedVariables: variables.object, uploads: slots,
                  options: options, settings: settings)
    }
}
