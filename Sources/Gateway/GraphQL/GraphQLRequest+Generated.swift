import GraphQLLanguage

extension GraphQLRequest {
    /// Makes the request of a generated operation: its variables are the value's properties,
    /// encoded as JSON (a `nil` optional left out, then filled by the definition's
    /// `variableDefaults` when it declares a default). Nothing is parsed and the variables are
    /// not checked again: the generator checked their types.
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
    ///   - encoding: how the variables are written (dates, keys); `Provider.fetch` uses the
    ///     provider's `jsonEncoding`.
    /// - Throws: `GatewayError` of kind `.invalidVariables` when the value does not encode as a
    ///   JSON object (a variable's own `encode(to:)` threw, or a number JSON cannot carry).
    public init<Operation: GraphQLOperationType>(
        _ operation: Operation, options: GraphQLRequestOptions = GraphQLRequestOptions(),
        settings: GraphQLSettings? = nil, encoding: JSONEncodingOptions = JSONEncodingOptions()
    ) throws where Operation.Data == Decoded {
        let definition = Operation.definition
        var variables: JSONObject
        do {
            variables = try GraphQLVariables(encoding: operation, options: encoding).object
        } catch var error as GatewayError {
            error.endpoint = definition.label
            throw error
        }
        for member in definition.variableDefaults where variables[member.key] == nil {
            variables[member.key] = member.value
        }
        self.init(operation: Operation.operation, uncheckedVariables: variables, options: options,
                  settings: settings)
    }
}
