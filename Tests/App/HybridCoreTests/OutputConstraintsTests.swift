import Foundation
@testable import HybridCore
@testable import HybridValidation
import Testing

@Suite struct SentenceSplitterTests {
    @Test(arguments: [
        ("Hello world", 1),
        ("Hello world.", 1),
        ("", 0),
        ("   ... —  ", 0),
        ("Dr. Smith arrived. He sat down.", 2),
        ("Use fruit, e.g. apples. Then eat.", 2),
        ("Pick a city, e.g. Paris or Rome.", 1),
        ("Pi is 3.14 roughly. Yes.", 2),
        ("It costs $3.50. Cheap!", 2),
        ("Wait... What happened? Nothing!", 3),
        ("He paused... and then left.", 1),
        ("Really?! No way.", 2),
        ("She said \"Hi.\" Then she left.", 2),
        ("\"Really?\" she asked.", 1),
        ("J. K. Rowling wrote it.", 1),
        ("The U.S. economy grew. Markets rose", 2),
        ("Apples, pears, etc. Then we left.", 2),
        ("Apples, pears, etc. and more.", 1),
        ("Visit example.com today. It works.", 2),
        ("First line\nSecond line", 2),
        ("1. Buy milk\n2. Eat cereal", 2),
        ("He is No. 1 in the world.", 1),
        ("**Done.** Next step.", 2),
        ("你好。再见。", 2),
    ])
    func countsSentences(text: String, expected: Int) {
        #expect(SentenceSplitter().count(in: text) == expected)
        // `count` walks the text without building the sentences; both must agree.
        #expect(SentenceSplitter().sentences(in: text).count == expected)
    }

    /// `wordCount` takes a byte path for ASCII text; it must count what the `Character` path counts, including
    /// `\r\n` (one `Character`), vertical tab and form feed, and tokens without a letter or digit.
    @Test(arguments: [
        "", "   ", "one", "one two", " a\tb\nc\r\nd\u{0B}e\u{0C}f ", "-- — ... x", "3.5 is $4, ok?", "a\r\n\r\nb", "!!! ???",
        "snake_case and kebab-case", "café au lait", "naïve\u{00A0}word", "x\u{2028}y",
    ])
    func wordCountMatchesTheCharacterDefinition(text: String) {
        let expected = text.split(whereSeparator: \.isWhitespace).count { $0.contains { $0.isLetter || $0.isNumber } }
        #expect(OutputConstraints.wordCount(text) == expected)
    }

    @Test func returnsTrimmedSentences() {
        #expect(
            SentenceSplitter().sentences(in: "  Dr. Who left.  Then (e.g. later) he came back!  ")
                == ["Dr. Who left.", "Then (e.g. later) he came back!"])
    }

    @Test func abbreviationsAreConfigurable() {
        #expect(SentenceSplitter().count(in: "See Xyz. Smith now.") == 2)
        #expect(SentenceSplitter(abbreviations: ["xyz"]).count(in: "See Xyz. Smith now.") == 1)
    }
}

@Suite struct OutputConstraintsTests {
    @Test(arguments: [
        ("one two three", 3),
        ("well-known fact — really", 3),
        ("  \n ", 0),
        ("e.g. 42 items", 3),
    ])
    func countsWords(text: String, expected: Int) {
        #expect(OutputConstraints.wordCount(text) == expected)
    }

    @Test func sentenceLimits() throws {
        let constraints = OutputConstraints(minSentences: 2, maxSentences: 3)
        let short = constraints.evaluate("Only one sentence here, e.g. this.")
        #expect(short.map(\.name) == ["min_sentences", "max_sentences"])
        #expect(short.map(\.passed) == [false, true])
        #expect(short[0].observed == 1)
        #expect(short[0].limit == 2)
        #expect(short[0].message == "1 sentence, at least 2 required")

        let long = constraints.evaluate("One. Two. Three. Four")
        #expect(long.map(\.passed) == [true, false])
        #expect(long[1].message == "4 sentences, at most 3 allowed")
    }

    @Test func wordAndCharacterLimits() {
        let constraints = OutputConstraints(minWords: 2, maxWords: 4, maxCharacters: 10)
        let results = constraints.evaluate("  Caf\u{E9} cre\u{300}me  ")
        #expect(results.map(\.name) == ["min_words", "max_words", "max_characters"])
        #expect(results.map(\.passed) == [true, true, true])
        // Trimmed, and "crème" with a combining accent is still five characters: 4 + 1 + 5.
        #expect(results[2].observed == 10)
        let tooLong = constraints.evaluate("one two three four five")
        #expect(tooLong.map(\.passed) == [true, false, false])
        #expect(tooLong[1].observed == 5)
        #expect(tooLong[2].observed == 23)
    }

    @Test(arguments: [
        ("One. Two.", true, 1),
        ("One.\n\nTwo.", false, 2),
        ("One.\nTwo.", false, 2),
        ("\n  One paragraph.  \n", true, 1),
    ])
    func singleParagraph(text: String, passed: Bool, paragraphs: Int) {
        let results = OutputConstraints(singleParagraph: true).evaluate(text)
        #expect(results.map(\.name) == ["single_paragraph"])
        #expect(results[0].passed == passed)
        #expect(results[0].observed == .int(paragraphs))
    }

    @Test func singleParagraphFalseChecksNothing() {
        #expect(OutputConstraints(singleParagraph: false).evaluate("a\n\nb").isEmpty)
        #expect(OutputConstraints(singleParagraph: false).isEmpty)
    }

    /// The seed app forbids mentioning fish or FOTH ("front of the house") in summaries.
    /// Several patterns are one trial per output: a row counting one per pattern would claim twice the data.
    @Test(arguments: [
        ("Production is blocking the feeds.", true, 0),
        ("The feeds showed Fish for an hour.", false, 1),
        ("Feeds cut to foth again; more FISH.", false, 2),
        ("The selfish houseguest went fishing.", true, 0),
    ])
    func forbidsFishAndFOTH(text: String, passed: Bool, matches: Int) {
        let constraints = OutputConstraints(mustNotContain: [.phrase("fish"), .phrase("FOTH")])
        let results = constraints.evaluate(text)
        #expect(results.map(\.name) == ["must_not_contain"])
        #expect(results[0].limit == [#""fish""#, #""FOTH""#])
        #expect(results[0].passed == passed)
        #expect(results[0].observed == .int(matches))
    }

    @Test func mustNotContainWithSeveralPatternsNamesEachOneThatMatched() {
        let constraints = OutputConstraints(mustNotContain: [.phrase("fish"), .phrase("FOTH"), .phrase("cat")])
        let failed = constraints.evaluate("Feeds cut to foth again; more FISH, fish.")[0]
        #expect(failed.message == #"contains "fish" 2 times (first: "FISH"); "FOTH" once (first: "foth")"#)
        let passed = constraints.evaluate("All clear.")[0]
        #expect(passed.message == #"does not contain any of "fish", "FOTH", "cat""#)
    }

    @Test func mustContainWithSeveralPatternsPassesOnlyWhenEveryPatternOccurs() {
        let constraints = OutputConstraints(mustContain: [.phrase("feeds"), .phrase("cameras"), .regex("\\d+ min")])
        let all = constraints.evaluate("The feeds and cameras were down for 5 min.")
        #expect(all.map(\.name) == ["must_contain"])
        #expect(all[0].passed && all[0].observed == .int(3))
        let some = constraints.evaluate("The feeds were down.")[0]
        #expect(!some.passed && some.observed == .int(1))
        #expect(some.message == #"does not contain "cameras", /\d+ min/i (2 of 3 patterns missing)"#)
    }

    @Test func mustNotContainMessageNamesTheMatch() {
        let result = OutputConstraints(mustNotContain: [.phrase("fish")]).evaluate("Fish, then fish.")[0]
        #expect(result.observed == 2)
        #expect(result.message == #"contains "fish" 2 times (first: "Fish")"#)
    }

    @Test(arguments: [
        (TextPattern.phrase("e.g."), "Use one, e.g. this.", true),
        (.phrase("e.g."), "Use one, eg this.", false),
        (.phrase("front of the house"), "Cameras at the Front of\nthe House.", true),
        (.phrase("C++"), "I write c++ daily", true),
        (.regex("fish\\w*"), "They went fishing", true),
        (.regex("^summary:"), "Summary: fine", true),
        (.regex("^summary:"), "The summary: fine", false),
        (.phrase("Zürich"), "Lived in zürich.", true),
    ])
    func mustContainPatterns(pattern: TextPattern, text: String, passed: Bool) {
        let results = OutputConstraints(mustContain: [pattern]).evaluate(text)
        #expect(results.map(\.name) == ["must_contain"])
        #expect(results[0].passed == passed)
    }

    @Test func oneResultPerConfiguredConstraintInOrder() {
        let constraints = OutputConstraints(
            minSentences: 1, maxSentences: 3, minWords: 1, maxWords: 50, maxCharacters: 300, singleParagraph: true,
            mustContain: [.phrase("feeds")], mustNotContain: [.phrase("fish"), .regex("FOTH|front of the house")])
        let results = constraints.evaluate("Production is blocking the feeds. Nothing else happened.")
        #expect(
            results.map(\.name) == [
                "min_sentences", "max_sentences", "min_words", "max_words", "max_characters", "single_paragraph",
                "must_contain", "must_not_contain",
            ])
        #expect(results.allSatisfy { $0.passed })
        #expect(OutputConstraints().evaluate("anything").isEmpty)
    }

    @Test(arguments: [
        (OutputConstraints(minSentences: 3, maxSentences: 2), "minSentences: 3 is greater than maxSentences (2); no output can satisfy both"),
        (OutputConstraints(minWords: 10, maxWords: 5), "minWords: 10 is greater than maxWords (5); no output can satisfy both"),
        (OutputConstraints(maxWords: 0), "maxWords: must be at least 1, got 0"),
        (OutputConstraints(minSentences: -1), "minSentences: must be at least 0, got -1"),
        (OutputConstraints(maxCharacters: 0), "maxCharacters: must be at least 1, got 0"),
        (OutputConstraints(mustContain: [.phrase("  ")]), "mustContain[0]: pattern is empty; it would match every output"),
        (OutputConstraints(mustNotContain: [.phrase("fish"), .regex("")]), "mustNotContain[1].regex: pattern is empty; it would match every output"),
    ])
    func rejectsInvalidDefinitions(constraints: OutputConstraints, message: String) {
        #expect {
            try constraints.validateDefinition()
        } throws: { error in
            (error as? ConstraintDefinitionError)?.description == message
        }
    }

    @Test func rejectsAnInvalidRegexWithItsPath() {
        do {
            try OutputConstraints(mustNotContain: [.phrase("fish"), .regex("(FOTH")]).validateDefinition()
            Issue.record("expected an error")
        } catch {
            guard case .invalidPattern(let path, let pattern, _) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(path == "mustNotContain[1].regex")
            #expect(pattern == "(FOTH")
        }
    }

    @Test func acceptsAValidDefinition() throws {
        try OutputConstraints(
            minSentences: 1, maxSentences: 1, mustNotContain: [.phrase("fish"), .regex("\\bFOTH\\b")]
        ).validateDefinition()
    }

    @Test func decodesFromConfigJSON() throws {
        let json = #"""
            {"maxSentences": 3, "singleParagraph": true, "mustNotContain": ["fish", {"regex": "FOTH|front of the house"}]}
            """#
        let decoded = try JSONDecoder().decode(OutputConstraints.self, from: Data(json.utf8))
        #expect(
            decoded
                == OutputConstraints(
                    maxSentences: 3, singleParagraph: true,
                    mustNotContain: [.phrase("fish"), .regex("FOTH|front of the house")]))
        let reencoded = try JSONDecoder().decode(OutputConstraints.self, from: JSONEncoder().encode(decoded))
        #expect(reencoded == decoded)
    }

    @Test(arguments: [
        (#"{"maxSentence": 3}"#, "unknown output constraint 'maxSentence' (supported: minSentences, maxSentences,"),
        (#"{"mustContain": [{"regx": "a"}]}"#, "unknown key 'regx'"),
    ])
    func rejectsUnknownKeys(json: String, messagePrefix: String) {
        #expect {
            _ = try JSONDecoder().decode(OutputConstraints.self, from: Data(json.utf8))
        } throws: { error in
            guard case .dataCorrupted(let context) = error as? DecodingError else { return false }
            return context.debugDescription.hasPrefix(messagePrefix)
        }
    }
}
