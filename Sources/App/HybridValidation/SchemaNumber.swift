/// A JSON number as the schema or instance gave it, compared exactly.
///
/// Converting everything to `Double` would answer wrongly above 2^53 (`9007199254740993 > 9007199254740992`
/// would be false), and `multipleOf` in binary floating point says `0.07` is not a multiple of `0.01`. Integers
/// therefore stay integers, and divisibility is decided on the shortest decimal form of each number, which is the
/// text the JSON most likely held.
enum SchemaNumber: Sendable, Hashable, CustomStringConvertible {
    case int(Int)
    case double(Double)

    /// The number in `value`, or nil for every other JSON type.
    init?(_ value: JSONValue) {
        switch value {
        case .int(let i): self = .int(i)
        case .double(let d) where d.isFinite: self = .double(d)
        default: return nil
        }
    }

    var description: String {
        switch self {
        case .int(let i): String(i)
        case .double(let d): JSONValue.formatNumber(d)
        }
    }

    /// -1, 0 or 1 as `self` is below, equal to or above `other`, without rounding either side.
    func compare(to other: SchemaNumber) -> Int {
        switch (self, other) {
        case (.int(let a), .int(let b)): a < b ? -1 : (a > b ? 1 : 0)
        case (.double(let a), .double(let b)): a < b ? -1 : (a > b ? 1 : 0)
        case (.int(let a), .double(let b)): Self.compare(a, b)
        case (.double(let a), .int(let b)): -Self.compare(b, a)
        }
    }

    static func < (lhs: SchemaNumber, rhs: SchemaNumber) -> Bool { lhs.compare(to: rhs) < 0 }

    /// Compares an integer with a double exactly: `Double(i)` would round integers above 2^53.
    private static func compare(_ i: Int, _ d: Double) -> Int {
        if d >= 9.223372036854775808e18 { return -1 }
        if d < -9.223372036854775808e18 { return 1 }
        let whole = d.rounded(.towardZero)
        let truncated = Int(whole)
        if i != truncated { return i < truncated ? -1 : 1 }
        let fraction = d - whole
        return fraction > 0 ? -1 : (fraction < 0 ? 1 : 0)
    }

    /// Whether `self` is an integer multiple of `divisor` (which the parser guarantees is positive).
    func isMultiple(of divisor: SchemaNumber) -> Bool {
        let value = DecimalForm(self)
        let step = DecimalForm(divisor)
        if value.digits == 0 { return true }
        guard step.digits != 0 else { return false }
        let shift = value.exponent - step.exponent
        if shift >= 0 {
            // value / step = (m1 / m2) · 10^shift: an integer iff what is left of m2 after removing the common
            // factor divides 10^shift, i.e. is 2^a · 5^b with a, b ≤ shift.
            var rest = step.digits / gcd(value.digits, step.digits)
            var twos = 0
            var fives = 0
            while rest % 2 == 0 { rest /= 2; twos += 1 }
            while rest % 5 == 0 { rest /= 5; fives += 1 }
            return rest == 1 && twos <= shift && fives <= shift
        }
        // value / step = m1 / (m2 · 10^-shift); a divisor larger than m1 cannot divide it.
        var scaled = step.digits
        for _ in 0 ..< -shift {
            let (product, overflow) = scaled.multipliedReportingOverflow(by: 10)
            if overflow || product > value.digits { return false }
            scaled = product
        }
        return value.digits % scaled == 0
    }

    private func gcd(_ a: UInt64, _ b: UInt64) -> UInt64 {
        var (x, y) = (a, b)
        while y != 0 { (x, y) = (y, x % y) }
        return x
    }
}

/// |number| = digits · 10^exponent, with trailing zeros moved into the exponent.
private struct DecimalForm {
    var digits: UInt64 = 0
    var exponent = 0

    init(_ number: SchemaNumber) {
        switch number {
        case .int(let i):
            digits = UInt64(i.magnitude)
        case .double(let d):
            // Swift prints the shortest decimal that reads back as the same Double, e.g. "0.07", "1e-05".
            parse(String(d.magnitude))
        }
        while digits != 0 && digits % 10 == 0 {
            digits /= 10
            exponent += 1
        }
    }

    private mutating func parse(_ text: String) {
        var mantissa = Substring(text)
        if let e = text.firstIndex(where: { $0 == "e" || $0 == "E" }) {
            mantissa = text[..<e]
            exponent = Int(text[text.index(after: e)...].replacing("+", with: "")) ?? 0
        }
        for character in mantissa {
            guard let digit = character.wholeNumberValue else { continue }
            digits = digits * 10 + UInt64(digit)
        }
        if let point = mantissa.firstIndex(of: ".") {
            exponent -= mantissa[mantissa.index(after: point)...].count
        }
    }
}
