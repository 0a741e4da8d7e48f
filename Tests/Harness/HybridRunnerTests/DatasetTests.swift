import Foundation
import HybridCore
@testable import HybridRunner
import Testing

@Suite struct DatasetTests {
    private func write(_ text: String, ext: String = "jsonl") throws -> String {
        let path = NSTemporaryDirectory() + "dataset-\(UUID().uuidString).\(ext)"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func loadsTheBundledDatasets() throws {
        let summarize = try Dataset.load(path: "datasets/summarize.jsonl")
        let extract = try Dataset.load(path: "datasets/extract.jsonl")
        #expect(summarize.cases.count >= 12)
        #expect(extract.cases.count >= 12)
        #expect(summarize.cases.allSatisfy { $0.input["input"] != nil && $0.reference?.expectedText != nil })
        #expect(extract.cases.allSatisfy { $0.reference?.expectedFields?["company"] != nil })
        #expect(summarize.contentHash.count == 64)
    }

    @Test func aMalformedLineNamesFileAndLineAndRefusesToLoad() throws {
        let path = try write("""
            {"id": "a", "input": {"text": "one"}}

            {"id": "b", "input": {"text": "two"}
            {"id": "c", "input": "not an object"}
            {"id": "d", "input": {"text": "four"}, "reference": {"expectedTxt": "typo"}}
            """)
        defer { try? FileManager.default.removeItem(atPath: path) }
        do {
            _ = try Dataset.load(path: path)
            Issue.record("a malformed dataset loaded")
        } catch {
            guard case .invalidLines(let errors) = error else { Issue.record("unexpected \(error)"); return }
            #expect(errors.count == 3)
            #expect(errors[2].description.hasPrefix("\(path):5: reference: unknown reference key 'expectedTxt'"))
            #expect(errors[0].description.hasPrefix("\(path):3: not valid JSON"))
            #expect(errors[1].description == "\(path):4: \"input\" must be an object of template variables, got string")
            #expect(error.description.contains("--skip-invalid"))
        }
    }

    /// A reference is read member by member (no `Decoder` behind it): each wrong member is named, nulls are absent.
    @Test(arguments: [
        (#"{"labels": ["a", 3]}"#, "reference: labels[1] must be a string, got integer"),
        (#"{"labels": "a"}"#, "reference: labels must be an array of strings, got string"),
        (#"{"expectedFields": [1]}"#, "reference: expectedFields must be an object, got array"),
        (#"{"expectedText": true}"#, "reference: expectedText must be a string, got boolean"),
        (#"{"regex": "("}"#, "reference: "),
    ])
    func aWrongReferenceMemberIsNamed(reference: String, message: String) throws {
        let line = #"{"id": "r", "input": {}, "reference": "# + reference + "}"
        guard case .failure(let problem) = try #require(Dataset.parseLine(line, number: 1)) else {
            Issue.record("\(reference) was accepted")
            return
        }
        #expect(problem.message.hasPrefix(message), "\(problem.message)")
        let nulls = try #require(Dataset.parseLine(
            #"{"id": "r", "input": {}, "reference": {"expectedText": "x", "regex": null, "labels": null, "expectedFields": null}}"#,
            number: 1)).get()
        #expect(nulls.reference == Reference(expectedText: "x"))
    }

    @Test func skipInvalidLoadsTheRestAndCountsWhatItSkipped() throws {
        let path = try write("""
            {"id": "a", "input": {"text": "one"}}
            not json
            {"id": "a", "input": {"text": "duplicate"}}
            {"id": "b", "input": {"n": 2, "flag": true}}
            """)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let dataset = try Dataset.load(path: path, skipInvalid: true)
        #expect(dataset.cases.map(\.id) == ["a", "b"])
        #expect(dataset.cases[1].input == ["n": "2", "flag": "true"])
        #expect(dataset.skipped.count == 2)
        #expect(dataset.skipped.map(\.description).contains("\(path):3: duplicate id \"a\" (first on line 1)"))
    }

    @Test func csvWithQuotedNewlinesKeepsLineNumbersAndMapsReferences() throws {
        let path = try write(#"""
            id,text,expected_text,expected.name
            c1,"Hello, world",Greeting,Ada
            c2,"two
            lines with ""quotes""",,
            c3,missing fields
            """#, ext: "csv")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let dataset = try Dataset.load(path: path, skipInvalid: true)
        #expect(dataset.cases.count == 2)
        #expect(dataset.cases[0].input == ["text": "Hello, world"])
        #expect(dataset.cases[0].reference == Reference(expectedText: "Greeting", expectedFields: ["name": "Ada"]))
        #expect(dataset.cases[1].input["text"] == "two\nlines with \"quotes\"")
        #expect(dataset.cases[1].reference == nil)
        #expect(dataset.skipped == [.invalidLine(path: path, line: 5, detail: "expected 4 fields like the header, got 2")])
    }

    @Test func unreadableAndEmptyFilesSayWhich() throws {
        #expect(throws: DatasetError.self) { try Dataset.load(path: "/nonexistent/data.jsonl") }
        let path = try write("\n\n")
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(throws: DatasetError.empty(path: path)) { try Dataset.load(path: path) }
    }
}

/// The scorers' ASCII fast path (bytes instead of `Character` properties) must give exactly the tokens the
/// `Character` path gives, or token F1 and ROUGE-L would change with the speed-up.
@Suite struct TextNormalizerFastPathTests {
    @Test func asciiTokensMatchTheCharacterPathOnEveryPrintableAndSpaceCharacter() {
        let alphabet = (0x00...0x7F).map { Character(Unicode.Scalar(UInt8($0))) } + ["\r\n"]
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for _ in 0..<2_000 {
            var text = ""
            for _ in 0..<40 {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                // Letters and spaces often, so tokens and articles ("a", "the") occur.
                let pick = Int(state >> 33) % (alphabet.count + 20)
                text += pick < alphabet.count ? String(alphabet[pick]) : ["a", " ", "the", "An", "x"][pick % 5]
            }
            #expect(TextNormalizer.squadTokens(text) == TextNormalizer.squadTokensByCharacter(text), "\(text.debugDescription)")
            #expect(TextNormalizer.rougeTokens(text) == TextNormalizer.rougeTokensByCharacter(text), "\(text.debugDescription)")
        }
    }
}
