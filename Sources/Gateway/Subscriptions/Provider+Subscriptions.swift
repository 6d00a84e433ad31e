import GraphQLLanguage

extension Provider {
    /// Subscribes to a GraphQL subscription: one `GraphQLResponse` per event, until the server
    /// completes it or the consuming task ends.
    ///
    /// ```swift
    /// let onTick = try operations["OnTick"]
    /// for try await tick in provider.subscribe(onTick, variables: ["every": 1], as: JSONValue.self) {
    ///     print(tick.data, tick.errors)
    /// }
    /// ```
    ///
    /// The protocol is the provider's `GraphQLSettings.subscriptions` (multipart HTTP by
    /// default, or server-sent events). The variables are checked as `fetch` checks them; the
    /// request that opens the subscription goes through the pipeline as any request (queue,
    /// auth, a refresh and replay after a 401, observers), its deadline bounding only the
    /// opening; then the events flow for as long as the consumer reads them, ending with
    /// `.timeout` only after a silence longer than the idle `timeout` (the options' or the
    /// provider's: keep it above the server's heartbeat interval). An event whose errors mean
    /// "not authenticated" (`GraphQLSettings.unauthenticated`) refreshes the credential once
    /// and subscribes again.
    ///
    /// - Parameters:
    ///   - operation: a subscription, usually from an `OperationStore`.
    ///   - variables: the variables, as a literal or JSON.
    ///   - type: what each event's `data` decodes as; `JSONValue` keeps it as JSON.
    ///   - options: this subscription's settings (headers, extensions, timeout, deadline, …);
    ///     persisted queries and the cache do not apply.
    /// - Returns: the events; iterating them opens the subscription at once, whether or not
    ///   anything is read.
    /// - Throws (in the sequence): as `fetch(_:variables:uploads:as:options:)`, and
    ///   `.invalidRequest` for an operation that is not a subscription.
    public func subscribe<Value: Decodable & Sendable>(
        _ operation: GraphQLOperation, variables: GraphQLVariables = [:], as type: Value.Type = Value.self,
        options: GraphQLRequestOptions = GraphQLRequestOptions()
    ) -> SubscriptionEvents<Value> {
        do {
            return subscribe(try GraphQLRequest<Value>(operation: operation, variables: variables, options: options,
                                                       settings: configuration.graphQL))
        } catch {
            return SubscriptionEvents(failing: error)
        }
    }

    /// Subscribes to a GraphQL subscription whose variables are Swift values, converted as
    /// `fetch(_:variables:uploads:as:options:)` converts them.
    ///
    /// ```swift
    /// let every = 2
    /// let onTick = try operations["OnTick"]
    /// for try await tick in provider.subscribe(onTick, variables: ["every": every], as: JSONValue.self) {
    ///     print(tick.data)
    /// }
    /// ```
    public func subscribe<Value: Decodable & Sendable>(
        _ operation: GraphQLOperation, variables: [String: any Encodable & Sendable], as type: Value.Type = Value.self,
        options: GraphQLRequestOptions = GraphQLRequestOptions()
    ) -> SubscriptionEvents<Value> {
        do {
            let converted = try GraphQLVariables(values: variables, options: configuration.jsonEncoding)
            return subscribe(operation, variables: converted, as: type, options: options)
        } catch {
            return SubscriptionEvents(failing: error)
        }
    }

    /// Subscribes to a GraphQL subscription whose variables are an `Encodable` value, encoded
    /// with the provider's `jsonEncoding`.
    public func subscribe<Value: Decodable & Sendable, Variables: Encodable & Sendable>(
        _ operation: GraphQLOperation, variables: Variables, as type: Value.Type = Value.self,
        options: GraphQLRequestOptions = GraphQLRequestOptions()
    ) -> SubscriptionEvents<Value> {
        do {
            let encoded = try GraphQLVariables(encoding: variables, options: configuration.jsonEncoding)
            return subscribe(operation, variables: encoded, as: type, options: options)
        } catch {
            return SubscriptionEvents(failing: error)
        }
    }

    /// Subscribes to a generated subscription: its events' `data` decode as its `Data`.
    ///
    /// ```swift
    /// for try await tick in provider.subscribe(OnTickSubscription(every: 1)) {
    ///     print(tick.data.tick)
    /// }
    /// ```
    public func subscribe<Subscription: GraphQLSubscription>(
        _ subscription: Subscription, options: GraphQLRequestOptions = GraphQLRequestOptions()
    ) -> SubscriptionEvents<Subscription.Data> {
        do {
            return subscribe(try GraphQLRequest(subscription, options: options, settings: configuration.graphQL,
                                                encoding: configuration.jsonEncoding))
        } catch {
            return SubscriptionEvents(failing: error)
        }
    }

    /// Subscribes with a request made in advance (its settings, or the provider's when it was
    /// made without).
    public func subscribe<Value>(_ request: GraphQLRequest<Value>) -> SubscriptionEvents<Value> {
        var request = request
        if request.followsProviderSettings { request.settings = configuration.graphQL }
        guard request.operation.kind == .subscription else {
            return SubscriptionEvents(failing: GatewayError(
                .invalidRequest, "\(request.name) is not a subscription",
                fix: "send queries and mutations with fetch", endpoint: request.name))
        }
        let settings = request.settings, options = request.options
        let opening: SubscriptionOpening
        do {
            opening = SubscriptionOpening(
                name: request.name, url: try request.endpointURL(baseURL: pipeline.baseURL), headers: options.headers,
                payload: request.payload, requiresAuthentication: options.requiresAuthentication,
                priority: options.priority, timeout: options.timeout, deadline: options.deadline,
                unauthenticated: settings.unauthenticated)
        } catch {
            return SubscriptionEvents(failing: error)
        }
        let channel = channel(for: settings.subscriptions)
        return SubscriptionRun(request: request, opening: opening, channel: channel, provider: self).events()
    }
}

extension Provider {
    /// The channel that carries subscriptions over `subscriptionProtocol`.
    func channel(for subscriptionProtocol: SubscriptionProtocol) -> any SubscriptionChannel {
        switch subscriptionProtocol {
        case .multipart: MultipartSubscriptionChannel(pipeline: pipeline)
        case .serverSentEvents: ServerSentEventsSubscriptionChannel(pipeline: pipeline)
        case .webSocket: webSockets
        }
    }
}
