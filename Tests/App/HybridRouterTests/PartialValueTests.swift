@testable import HybridConfig
@testable import HybridCore
@testable import HybridRouter
@testable import HybridTestSupport
@testable import HybridValidation
import Testing

/// Typed partials: every property readable as it arrives, nested types partial too, arrays growing; a partial
/// never loses or changes a value it showed, and the last one equals the final value.
@Suite struct PartialValueTests {
    struct Place: StructuredOutput, Equatable {
        var city: String
        var country: String
    }

    struct Trip: StructuredOutput, Equatable {
        enum Mode: String, Codable, CaseIterable, Sendable { case train, plane }
        var title: String
        var days: Int
        var mode: Mode
        var place: Place
        var stops: [String]
    }

    static let answer = #"{"title": "Alps", "days": 4, "mode": "train", "place": {"city": "Bern", "country": "CH"}, "stops": ["Thun", "Spiez", "Brig"]}"#

    /// The leaves of a partial trip, nil where not yet arrived.
    struct Seen: Equatable {
        var title: String?, days: Int?, mode: Trip.Mode?, city: String?, country: String?, stops: [String]?
        init(_ p: PartialValue<Trip>) {
            (title, days, mode, city, country, stops) = (p.title, p.days, p.mode, p.place.city, p.place.country, p.stops)
        }
        /// Every value this one shows is shown the same by `later`.
        func isKept(by later: Seen) -> Bool {
            func kept<V: Equatable>(_ a: V?, _ b: V?) -> Bool { a == nil || a == b }
            let stopsKept = stops.map { earlier in later.stops.map { Array($0.prefix(earlier.count)) == earlier } ?? false } ?? true
            return kept(title, later.title) && kept(days, later.days) && kept(mode, later.mode) && kept(city, later.city)
                && kept(country, later.country) && stopsKept
        }
    }

    @Test func aPartialReadsTheArrivedPropertiesAndNothingElse() {
        let partial = PartialValue<Trip>(json: ["title": "Alps", "place": ["city": "Bern"], "stops": ["Thun"]])
        #expect(partial.title == "Alps")
        #expect(partial.days == nil && partial.mode == nil)
        #expect(partial.place.city == "Bern" && partial.place.country == nil)
        #expect(partial.stops == ["Thun"])
        let empty = PartialValue<Trip>(json: [:])
        #expect(empty.title == nil && empty.place.city == nil && empty.stops == nil)
    }

    @Test func streamedPartialsOnlyGrowAndEndAtTheFinalValue() async throws {
        let model = ScriptedLanguageModel(id: "local", script: [.reply(Self.answer)])
        let router = try Router(models: [.model(model)])
        var seen: [Seen] = []
        var final: Trip?
        for try await snapshot in router.streamResponse(to: "plan", generating: Trip.self) {
            seen.append(Seen(snapshot.partial))
            if snapshot.completed != nil { final = snapshot.content }
        }
        let last = try #require(final)
        // Usable before the whole value: the title arrives long before `content` exists.
        #expect(seen.contains { $0.title == "Alps" && $0.stops == nil })
        for (earlier, later) in zip(seen, seen.dropFirst()) { #expect(earlier.isKept(by: later), "\(earlier) → \(later)") }
        let whole = try #require(seen.last)
        #expect(whole == Seen(PartialValue<Trip>(json: try JSONValue(parsing: Self.answer))))
        #expect(whole.title == last.title && whole.days == last.days && whole.mode == last.mode)
        #expect(whole.city == last.place.city && whole.country == last.place.country && whole.stops == last.stops)
    }

    @Test func jsonValuesPrintAsJSON() {
        let value: JSONValue = ["name": "Paris", "n": 2]
        #expect("\(value)" == #"{"n":2,"name":"Paris"}"#)
    }
}
