public import HybridCore

extension RouteAttempt {
    /// What happened with the model.
    ///
    /// A struct with a kind rather than a public enum, so a new outcome does not break callers' exhaustive switches:
    /// test `outcome.kind == .skipped` (or compare whole outcomes with `==`) and read the properties.
    public struct Outcome: Sendable, Equatable, CustomStringConvertible {
        /// The kind of outcome: the same names the field event's attempts carry (one vocabulary, so an attempt reads
        /// the same in `RoutedResponse.attempts` and in the `RouteEvent`). New kinds may be added; compare with `==`
        /// and keep a `default` in a `switch`.
        public typealias Kind = RouteEvent.AttemptOutcome

        /// The kind of outcome.
        public let kind: Kind
        /// For ``Kind/skipped``: why the model was not called.
        public let skipReason: RouteSkipReason?
        /// For ``Kind/failed`` and ``Kind/interrupted``: the model's error.
        public let error: GenerationError?
        /// For ``Kind/failedChecks``: the output checks the answer failed that the routing policy falls back on.
        public let checkFailures: [FailedOutputCheck]
        /// For ``Kind/timedOut``: the per-attempt timeout that passed.
        public let attemptTimeout: Duration?

        private init(
            _ kind: Kind, skipReason: RouteSkipReason? = nil, error: GenerationError? = nil,
            checkFailures: [FailedOutputCheck] = [], attemptTimeout: Duration? = nil
        ) {
            self.kind = kind
            self.skipReason = skipReason
            self.error = error
            self.checkFailures = checkFailures
            self.attemptTimeout = attemptTimeout
        }

        /// The model answered; its response is the one returned.
        static let served = Outcome(.served)
        /// A cached response of this model was returned without calling it.
        static let servedFromCache = Outcome(.servedFromCache)
        /// The model was still working when the overall deadline passed; its call was cancelled.
        static let cancelledAtDeadline = Outcome(.cancelledAtDeadline)
        /// A hedged request: another model's answer won the race and this call was cancelled.
        static let lostRace = Outcome(.lostRace)

        /// The model was not called, for the reason given.
        static func skipped(_ reason: RouteSkipReason) -> Outcome { Outcome(.skipped, skipReason: reason) }

        /// The model was called and failed.
        static func failed(_ error: GenerationError) -> Outcome { Outcome(.failed, error: error) }

        /// A stream: the model's text reached the app, then it failed (a stall past the attempt timeout is a
        /// `timeout` error); the text is billed and the next model recovers the answer, or the request fails.
        static func interrupted(_ error: GenerationError) -> Outcome { Outcome(.interrupted, error: error) }

        /// The model answered, but the answer failed output checks the routing policy falls back on (listed).
        static func failedChecks(_ failures: [FailedOutputCheck]) -> Outcome {
            Outcome(.failedChecks, checkFailures: failures)
        }

        /// The model was still working when its per-attempt timeout passed; the call was cancelled and the next
        /// model tried.
        static func timedOut(after limit: Duration) -> Outcome { Outcome(.timedOut, attemptTimeout: limit) }

        /// What happened, as ``RouteAttempt/description`` words it (`skipped: …`, `failed: …`).
        public var description: String {
            switch kind {
            case .served: "served"
            case .servedFromCache: "served from cache"
            case .skipped: "skipped: " + (skipReason.map { "\($0)" } ?? "")
            case .failed: "failed: " + (error.map { "\($0)" } ?? "")
            case .interrupted: "interrupted after its text was shown: " + (error.map { "\($0)" } ?? "")
            case .cancelledAtDeadline: "cancelled at the deadline"
            case .failedChecks: "failed checks: " + checkFailures.map(\.description).joined(separator: ", ")
            case .timedOut: "timed out after its \(RouteAttempt.ms(attemptTimeout ?? .zero)) attempt timeout"
            case .lostRace: "cancelled: another model won the hedged race"
            default: kind.rawValue
            }
        }
    }
}
