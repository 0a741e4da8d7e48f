import HybridReport

/// A share of requests with its Wilson score interval (95 %); with repeated cases, the interval is on cases.
public struct ProportionEstimate: Sendable, Hashable, CustomStringConvertible {
    /// Requests that counted as a success.
    public var successes: Int
    /// Requests counted; with 0 every figure is NaN.
    public var trials: Int
    /// `successes / trials`, in 0...1; with repeated cases, the mean of the cases' reduced values.
    public var proportion: Double
    /// Lower bound of the Wilson 95 % interval.
    public var lower: Double
    /// Upper bound of the Wilson 95 % interval.
    public var upper: Double
    /// The cases the interval is computed on when requests repeat cases; nil when each request is its own case.
    public var cases: Int?

    /// Computes the proportion and its Wilson interval.
    public init(successes: Int, trials: Int) {
        self.init(successes: successes, trials: trials, wilson: WilsonInterval(successes: successes, trials: trials))
    }

    /// `successes` of `trials` requests whose cases' reduced values (``RepeatReducer``) are `caseValues`: the
    /// proportion is their mean and the Wilson interval is on the cases.
    public init(successes: Int, trials: Int, caseValues: [Double]) {
        self.init(successes: successes, trials: trials, wilson: WilsonInterval(unitValues: caseValues))
        cases = caseValues.count
    }

    private init(successes: Int, trials: Int, wilson: WilsonInterval?) {
        self.successes = successes
        self.trials = trials
        cases = nil
        if let wilson {
            proportion = wilson.proportion
            lower = wilson.lower
            upper = wilson.upper
        } else {
            proportion = trials > 0 ? Double(successes) / Double(trials) : .nan
            lower = .nan
            upper = .nan
        }
    }

    /// `80.0% (8/10) [Wilson 49.0%, 94.3%]`; with repeated cases `… (40/50 over 10 cases) …`.
    public var description: String {
        let over = cases.map { " over \($0) cases" } ?? ""
        return "\(Self.percent(proportion)) (\(successes)/\(trials)\(over)) [Wilson \(Self.percent(lower)), \(Self.percent(upper))]"
    }

    static func percent(_ value: Double) -> String {
        value.isNaN ? "n/a" : String(format: "%.1f%%", value * 100)
    }
}
