public import HybridCore

extension RouteAttempt {
    /// What happened with the model.
    ///
    /// A struct with a kind rather than a public enum, so a new outcome does not break callers' exhaustive switches:
    /// test `outcome.kind == .skipped` (or compare whole outcomes with `==`) and read the properties.
    public struct Outcome: Sendable, Equatable, CustomStringConvertible {
        /// The kind of outcome. New kinds may be added; compare with `==` and keep a `default` in a `switch`.
        public struct Kind: Hashable, Sendable, CustomStringConvertible {
            /// Internal so the router's own switches stay exhaustive while callers cannot depend on the list.
            enum Name: String, Sendable {
                case served, servedFromCache, skipped, failed, cancelledAtDeadline, failedChecks, timedOut, lostRace
            }

            let name: Name

            /// The model answered; its response is the one returned.
            public static let served = Kind(name: .served)
            /// A cached response of this model was returned without calling it.
            public static let servedFromCache = Kind(name: .servedFromCache)
            /// The model was not called (``Outcome/skipReason`` says why).
            public static let skipped = Kind(name: .skipped)
            /// The model was called and failed (``Outcome/error`` says how).
            public static let failed = Kind(name: .failed)
            /// The model was still working when the overall deadline passed; its call was cancelled.
            public static let cancelledAtDeadline = Kind(name: .cancelledAtDeadline)
            /// The model answered, but the answer failed output checks (``Outcome/checkFailures``).
            public static let failedChecks = Kind(name: .failedChecks)
            /// The model ran past its per-attempt timeout (``Outcome/attemptTimeout``).
            public static let timedOut = Kind(name: .timedOut)
            /// A hedged request: another model's answer won and this call was cancelled.
            public static let lostRace = Kind(name: .lostRace)

            /// The kind's name as written in Swift (`servedFromCache`).
            public var description: String { name.rawValue }
        }

        /// The kind of outcome.
        public let kind: Kind
        /// For ``Kind/skipped``: why the model was not called.
        public let skipReason: RouteSkipReason?
        /// For ``Kind/failed``: the model's error.
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
        public static let served = Outcome(.served)
        /// A cached response of this model was returned without calling it.
        public static let servedFromCache = Outcome(.servedFromCache)
        /// The model was still working when the overall deadline passed; its call was cancelled.
        public static let cancelledAtDeadline = Outcome(.cancelledAtDeadline)
        /// A hedged request: another model's answer won the race and this call was cancelled.
        public static let lostRace = Outcome(.lostRace)

        /// The model was not called, for the reason given.
        package static func skipped(_ reason: RouteSkipReason) -> Outcome { Outcome(.skipped, skipReason: reason) }

        /// The model was called and failed.
        package static func failed(_ error: GenerationError) -> Outcome { Outcome(.failed, error: error) }

        /// The model answered, but the answer failed output checks the routing policy falls back on (listed).
        package static func failedChecks(_ failures: [FailedOutputCheck]) -> Outcome {
            Outcome(.failedChecks, checkFailures: failures)
        }

        /// The model was still working when its per-attempt timeout passed; the call was cancelled and the next
        /// model tried.
        package static func timedOut(after limit: Duration) -> Outcome { Outcome(.timedOut, attemptTimeout: limit) }

        /// What happened, as ``RouteAttempt/description`` words it (`skipped: …`, `failed: …`).
        public var description: String {
            switch kind.name {
            case .served: "served"
            case .servedFromCache: "served from cache"
            case .skipped: "skipped: " + (skipReason.map { "\($0)" } ?? "")
            case .failed: "failed: " + (error.map { "\($0)" } ?? "")
            case .cancelledAtDeadline: "cancelled at the deadline"
            case .failedChecks: "failed checks: " + checkFailures.map(\.description).joined(separator: ", ")
            case .timedOut: "timed out after its \(RouteAttempt.ms(attemptTimeout ?? .zero)) attempt timeout"
            case .lostRace: "cancelled: another model won the hedged race"
            }
        }
    }
}
