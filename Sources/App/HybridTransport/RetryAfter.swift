package import Foundation

/// Reads how long to wait after a 429 from the response headers.
///
/// Order, most precise first: `retry-after-ms` (milliseconds, sent by OpenAI), `Retry-After` (delay-seconds or
/// an IMF-fixdate HTTP-date, RFC 9110 §10.2.3), then OpenAI's `x-ratelimit-reset-requests` /
/// `x-ratelimit-reset-tokens` (Go-style durations such as `1s`, `6m0s`, `12ms`); when both reset headers are
/// present the longer one is used, because either limit may be the one that was hit.
/// Shared by the providers (429s) and the event uploader (503s), hence `package`.
package enum RetryAfter {
    package static func duration(from headers: HTTPHeaders, now: Date = Date()) -> Duration? {
        if let ms = headers["retry-after-ms"].flatMap({ Double($0.trimmingCharacters(in: .whitespaces)) }), ms.isFinite, ms >= 0 {
            return .milliseconds(Int64(ms.rounded()))
        }
        if let value = headers["retry-after"] {
            if let seconds = seconds(value) { return seconds }
            if let date = httpDate(value, now: now) { return date }
        }
        let resets = ["x-ratelimit-reset-requests", "x-ratelimit-reset-tokens"].compactMap { headers[$0].flatMap(goDuration) }
        return resets.max()
    }

    /// `Retry-After: 120` (fractions tolerated, negatives rejected).
    static func seconds(_ value: String) -> Duration? {
        let trimmed = value.trimmingCharacters(in: .whitespaces)
        guard let seconds = Double(trimmed), seconds.isFinite, seconds >= 0 else { return nil }
        return .milliseconds(Int64((seconds * 1000).rounded()))
    }

    /// `Retry-After: Wed, 21 Oct 2015 07:28:00 GMT`, as the time left from `now` (zero if already past).
    static func httpDate(_ value: String, now: Date) -> Duration? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        guard let date = formatter.date(from: value.trimmingCharacters(in: .whitespaces)) else { return nil }
        let interval = max(0, date.timeIntervalSince(now))
        return .milliseconds(Int64((interval * 1000).rounded()))
    }

    /// A Go `time.Duration` string: one or more `<decimal><unit>` with units h, m, s, ms, us/µs, ns.
    package static func goDuration(_ value: String) -> Duration? {
        var rest = Substring(value.trimmingCharacters(in: .whitespaces))
        guard !rest.isEmpty else { return nil }
        if rest == "0" { return .zero }
        var totalSeconds = 0.0
        while !rest.isEmpty {
            let number = rest.prefix { $0.isASCII && ($0.isNumber || $0 == ".") }
            guard !number.isEmpty, let amount = Double(number) else { return nil }
            rest = rest.dropFirst(number.count)
            let unit = rest.prefix { !($0.isASCII && ($0.isNumber || $0 == ".")) }
            rest = rest.dropFirst(unit.count)
            let scale: Double
            switch unit {
            case "h": scale = 3600
            case "m": scale = 60
            case "s": scale = 1
            case "ms": scale = 1e-3
            case "us", "µs", "μs": scale = 1e-6
            case "ns": scale = 1e-9
            default: return nil
            }
            totalSeconds += amount * scale
        }
        return .nanoseconds(Int64((totalSeconds * 1e9).rounded()))
    }
}
