#if canImport(Testing)
extension TransportConformance {
    /// One behaviour every transport must have; `allCases` is the whole conformance suite.
    public enum Check: String, CaseIterable, Sendable, CustomStringConvertible {
        // Round trips: what goes out and what comes back.
        /// A GET round trip carries headers and query and returns the body byte for byte.
        case getRoundTripCarriesHeadersAndQueryAndReturnsTheBodyByteForByte
        /// A POST sends the body byte for byte.
        case postSendsTheBodyByteForByte
        /// Other methods arrive as sent.
        case otherMethodsArriveAsSent
        /// A file body is streamed and arrives byte for byte.
        case aFileBodyIsStreamedAndArrivesByteForByte
        /// A 204 No Content response has an empty body.
        case noContentHasAnEmptyBody
        /// HEAD has no body and is not mistaken for a truncated one.
        case headHasNoBodyAndIsNotMistakenForATruncatedOne
        /// The body is framed by the transport and never labelled as a form.
        case theBodyIsFramedByTheTransportAndNeverLabelledAsAForm
        /// An empty body is sent as no body.
        case anEmptyBodyIsSentAsNoBody
        /// A HEAD for a large resource is not too large.
        case aHeadForALargeResourceIsNotTooLarge
        /// Error statuses are responses, not errors.
        case errorStatusesAreResponsesNotErrors
        /// A gzip body arrives decompressed and is not taken for truncated.
        case aGzipBodyArrivesDecompressedAndIsNotTakenForTruncated
        /// A chunked response arrives whole.
        case aChunkedResponseArrivesWhole
        /// Request headers override the defaults.
        case requestHeadersOverrideTheDefaults
        /// Cookies are neither stored nor sent.
        case cookiesAreNeitherStoredNorSent
        /// Fifty concurrent requests all succeed.
        case fiftyConcurrentRequestsAllSucceed
        /// Sequential requests reuse one connection.
        case sequentialRequestsReuseOneConnection

        // Streaming: the body as it arrives.
        /// The body arrives in chunks as the server sends it.
        case theBodyArrivesInChunksAsTheServerSendsIt
        /// The metrics are known when the body ends.
        case theMetricsAreKnownWhenTheBodyEnds
        /// `collect(upTo:)` stops a compression bomb at its limit, counting decoded bytes.
        case collectStopsACompressionBombAtItsLimit
        /// Cancelling the task reading the body ends the exchange.
        case cancellingWhileReadingTheBodyEndsTheExchange
        /// `forEachChunk` hands over the whole body in order, and the metrics follow.
        case forEachChunkHandsOverTheWholeBodyInOrder
        /// An error the consumer of `forEachChunk` throws ends the exchange and comes back as it is.
        case aConsumersErrorEndsTheExchangeAndComesBackAsItIs
        /// `forEachChunk` holds the size limit and fails a body cut off midway.
        case forEachChunkHoldsTheLimitAndFailsABodyCutOff
        /// Cancelling the task in `forEachChunk` ends the exchange.
        case cancellingDuringForEachChunkEndsTheExchange

        // Faults and limits: always a clear error, never a short success or a hang.
        /// A body cut off midway is an error, never a success.
        case aBodyCutOffMidwayIsAnErrorNeverASuccess
        /// A stalled server ends in a timeout inside the deadline.
        case aStalledServerEndsInATimeoutInsideTheDeadline
        /// A stall after part of the body ends in a timeout.
        case aStallAfterPartOfTheBodyEndsInATimeout
        /// The timeout is an idle timeout, not a limit on the whole transfer.
        case theTimeoutIsAnIdleTimeoutNotALimitOnTheWholeTransfer
        /// A deadline shorter than delayed headers ends in a timeout.
        case aDeadlineShorterThanDelayedHeadersEndsInATimeout
        /// A deadline already past fails before sending.
        case aDeadlineAlreadyPastFailsBeforeSending
        /// An oversized body ends in response too large without holding it.
        case anOversizedBodyEndsInResponseTooLargeWithoutHoldingIt
        /// A body exactly at the limit is accepted.
        case aBodyExactlyAtTheLimitIsAccepted
        /// A reset connection is a transport error.
        case aResetConnectionIsATransportError
        /// A closed port is a transport error that says where.
        case aClosedPortIsATransportErrorThatSaysWhere
        /// Cancelling the task cancels the request promptly.
        case cancellingTheTaskCancelsTheRequestPromptly
        /// A task cancelled before sending never reaches the server.
        case aTaskCancelledBeforeSendingNeverReachesTheServer
        /// Requests HTTP cannot carry are refused before sending.
        case requestsHTTPCannotCarryAreRefusedBeforeSending
        /// A missing body file is an invalid request.
        case aMissingBodyFileIsAnInvalidRequest
        /// Error descriptions never show tokens.
        case errorDescriptionsNeverShowTokens

        // Redirects: followed by the transport, with the origin rules.
        /// A same-origin redirect keeps every header.
        case aSameOriginRedirectKeepsEveryHeader
        /// A cross-origin redirect arrives without credentials.
        case aCrossOriginRedirectArrivesWithoutCredentials
        /// Credentials do not come back when the chain returns to the first origin.
        case credentialsDoNotComeBackWhenTheChainReturnsToTheFirstOrigin
        /// A 303 See Other after a POST continues as a GET without the body.
        case aSeeOtherAfterAPostContinuesAsAGetWithoutTheBody
        /// A temporary redirect resends the method and the body.
        case aTemporaryRedirectResendsTheMethodAndTheBody
        /// A temporary redirect resends a file body byte for byte.
        case aTemporaryRedirectResendsAFileBodyByteForByte
        /// Twenty redirects are followed.
        case twentyRedirectsAreFollowed
        /// The twenty-first redirect ends with too many redirects.
        case theTwentyFirstRedirectEndsWithTooManyRedirects
        /// The redirect limit can be lowered.
        case theRedirectLimitCanBeLowered
        /// A redirect to a non-HTTP scheme is refused.
        case aRedirectToANonHTTPSchemeIsRefused
        /// A redirect without location is the final response.
        case aRedirectWithoutLocationIsTheFinalResponse

        // Under a `Provider`: what `send` reports.
        /// Under a provider: a same-origin redirect keeps the bearer token.
        case providerSameOriginRedirectKeepsTheBearerToken
        /// Under a provider: a cross-origin redirect arrives without authorization.
        case providerCrossOriginRedirectArrivesWithoutAuthorization
        /// Under a provider: a body cut off midway ends in an error, never a success.
        case providerBodyCutOffMidwayEndsInAnErrorNeverASuccess
        /// Under a provider: a stalled server ends in a timeout inside the deadline.
        case providerStalledServerEndsInATimeoutInsideTheDeadline
        /// Under a provider: a deadline shorter than the timeout ends the call at the deadline.
        case providerDeadlineShorterThanTheTimeoutEndsTheCallAtTheDeadline
        /// Under a provider: an oversized body ends in the size limit error.
        case providerOversizedBodyEndsInTheSizeLimitError
        /// Under a provider: an endpoint's own size limit wins over the provider's.
        case providerEndpointsOwnSizeLimitWinsOverTheProviders

        // Downloads and uploads under a `Provider`.
        /// A download whose connection dropped halfway is resumed by the next call with a range
        /// request for the bytes after those that arrived, and ends with the exact bytes.
        case transferDroppedDownloadResumesWithARangeRequestAndEndsWithTheExactBytes
        /// An upload's progress reaches the length of its body.
        case transferUploadProgressReachesTheBodysLength

        /// The check's name, a sentence in camel case.
        public var description: String { rawValue }

        enum Area { case roundTrip, streaming, fault, redirect, provider, transfer }

        var area: Area {
            if rawValue.hasPrefix("provider") { return .provider }
            if rawValue.hasPrefix("transfer") { return .transfer }
            switch self {
            case .theBodyArrivesInChunksAsTheServerSendsIt, .theMetricsAreKnownWhenTheBodyEnds,
                .collectStopsACompressionBombAtItsLimit, .cancellingWhileReadingTheBodyEndsTheExchange,
                .forEachChunkHandsOverTheWholeBodyInOrder, .aConsumersErrorEndsTheExchangeAndComesBackAsItIs,
                .forEachChunkHoldsTheLimitAndFailsABodyCutOff, .cancellingDuringForEachChunkEndsTheExchange:
                return .streaming
            case .aBodyCutOffMidwayIsAnErrorNeverASuccess, .aStalledServerEndsInATimeoutInsideTheDeadline,
                .aStallAfterPartOfTheBodyEndsInATimeout, .theTimeoutIsAnIdleTimeoutNotALimitOnTheWholeTransfer,
                .aDeadlineShorterThanDelayedHeadersEndsInATimeout, .aDeadlineAlreadyPastFailsBeforeSending,
                .anOversizedBodyEndsInResponseTooLargeWithoutHoldingIt, .aBodyExactlyAtTheLimitIsAccepted,
                .aResetConnectionIsATransportError, .aClosedPortIsATransportErrorThatSaysWhere,
                .cancellingTheTaskCancelsTheRequestPromptly, .aTaskCancelledBeforeSendingNeverReachesTheServer,
                .requestsHTTPCannotCarryAreRefusedBeforeSending, .aMissingBodyFileIsAnInvalidRequest,
                .errorDescriptionsNeverShowTokens:
                return .fault
            case .aSameOriginRedirectKeepsEveryHeader, .aCrossOriginRedirectArrivesWithoutCredentials,
                .credentialsDoNotComeBackWhenTheChainReturnsToTheFirstOrigin,
                .aSeeOtherAfterAPostContinuesAsAGetWithoutTheBody, .aTemporaryRedirectResendsTheMethodAndTheBody,
                .aTemporaryRedirectResendsAFileBodyByteForByte, .twentyRedirectsAreFollowed,
                .theTwentyFirstRedirectEndsWithTooManyRedirects, .theRedirectLimitCanBeLowered,
                .aRedirectToANonHTTPSchemeIsRefused, .aRedirectWithoutLocationIsTheFinalResponse:
                return .redirect
            default:
                return .roundTrip
            }
        }
    }
}
#endif
