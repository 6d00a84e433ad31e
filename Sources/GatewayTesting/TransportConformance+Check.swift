#if canImport(Testing)
extension TransportConformance {
    /// One behaviour every transport must have; `allCases` is the whole conformance suite.
    public enum Check: String, CaseIterable, Sendable, CustomStringConvertible {
        // Round trips: what goes out and what comes back.
        case getRoundTripCarriesHeadersAndQueryAndReturnsTheBodyByteForByte
        case postSendsTheBodyByteForByte
        case otherMethodsArriveAsSent
        case aFileBodyIsStreamedAndArrivesByteForByte
        case noContentHasAnEmptyBody
        case headHasNoBodyAndIsNotMistakenForATruncatedOne
        case theBodyIsFramedByTheTransportAndNeverLabelledAsAForm
        case anEmptyBodyIsSentAsNoBody
        case aHeadForALargeResourceIsNotTooLarge
        case errorStatusesAreResponsesNotErrors
        case aGzipBodyArrivesDecompressedAndIsNotTakenForTruncated
        case aChunkedResponseArrivesWhole
        case requestHeadersOverrideTheDefaults
        case cookiesAreNeitherStoredNorSent
        case fiftyConcurrentRequestsAllSucceed
        case sequentialRequestsReuseOneConnection

        // Faults and limits: always a clear error, never a short success or a hang.
        case aBodyCutOffMidwayIsAnErrorNeverASuccess
        case aStalledServerEndsInATimeoutInsideTheDeadline
        case aStallAfterPartOfTheBodyEndsInATimeout
        case theTimeoutIsAnIdleTimeoutNotALimitOnTheWholeTransfer
        case aDeadlineShorterThanDelayedHeadersEndsInATimeout
        case aDeadlineAlreadyPastFailsBeforeSending
        case anOversizedBodyEndsInResponseTooLargeWithoutHoldingIt
        case aBodyExactlyAtTheLimitIsAccepted
        case aResetConnectionIsATransportError
        case aClosedPortIsATransportErrorThatSaysWhere
        case cancellingTheTaskCancelsTheRequestPromptly
        case aTaskCancelledBeforeSendingNeverReachesTheServer
        case requestsHTTPCannotCarryAreRefusedBeforeSending
        case aMissingBodyFileIsAnInvalidRequest
        case errorDescriptionsNeverShowTokens

        // Redirects: followed by the transport, with the origin rules.
        case aSameOriginRedirectKeepsEveryHeader
        case aCrossOriginRedirectArrivesWithoutCredentials
        case credentialsDoNotComeBackWhenTheChainReturnsToTheFirstOrigin
        case aSeeOtherAfterAPostContinuesAsAGetWithoutTheBody
        case aTemporaryRedirectResendsTheMethodAndTheBody
        case aTemporaryRedirectResendsAFileBodyByteForByte
        case twentyRedirectsAreFollowed
        case theTwentyFirstRedirectEndsWithTooManyRedirects
        case theRedirectLimitCanBeLowered
        case aRedirectToANonHTTPSchemeIsRefused
        case aRedirectWithoutLocationIsTheFinalResponse

        // Under a `Provider`: what `send` reports.
        case providerSameOriginRedirectKeepsTheBearerToken
        case providerCrossOriginRedirectArrivesWithoutAuthorization
        case providerBodyCutOffMidwayEndsInAnErrorNeverASuccess
        case providerStalledServerEndsInATimeoutInsideTheDeadline
        case providerDeadlineShorterThanTheTimeoutEndsTheCallAtTheDeadline
        case providerOversizedBodyEndsInTheSizeLimitError
        case providerEndpointsOwnSizeLimitWinsOverTheProviders

        /// The check's name, a sentence in camel case.
        public var description: String { rawValue }

        enum Area { case roundTrip, fault, redirect, provider }

        var area: Area {
            if rawValue.hasPrefix("provider") { return .provider }
            switch self {
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
