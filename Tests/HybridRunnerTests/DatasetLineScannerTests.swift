import HybridCore
@testable import HybridRunner
import Testing

/// The byte scanner for plain case lines must give exactly the case `Dataset.makeCase` builds from the parsed
/// tree, and must decline (nil) every line it does not fully understand, so the tree path reports the problem.
@Suite struct DatasetLineScannerTests {
    private func scanned(_ line: String) -> EvalCase? {
        var line = line
        return line.withUTF8 { DatasetLineScanner.evalCase(UnsafeRawBufferPointer($0), line: 7) }
    }

    private func parsed(_ line: String) throws -> EvalCase {
        try Dataset.makeCase(JSONValue(parsing: line), line: 7).get()
    }

    @Test(arguments: [
        #"{"id":"c1","input":{"input":"Case 1 says the weather is fine."},"reference":{"expectedText":"Fine."}}"#,
        #" { "input" : { "a" : "x" , "b" : "y\n\u00e9\"z" } , "id" : "c2" } "#,
        #"{"id":"c3","input":{},"reference":null}"#,
        #"{"id":"c4","input":{"text":"naïve café ✓"},"reference":{"regex":"^[A-Z]","expectedText":"A"}}"#,
    ])
    func plainLinesGiveTheParsedCase(_ line: String) throws {
        let fast = try #require(scanned(line))
        #expect(fast == (try parsed(line)))
    }

    @Test(arguments: [
        #"{"id":7,"input":{"a":"x"}}"#,  // a numeric id: the tree path turns it into "7"
        #"{"id":"c","input":{"n":3}}"#,  // a numeric input
        #"{"id":"c","input":{"a":"x"},"tags":["t"]}"#,  // a key the scanner leaves to the tree path
        #"{"id":"c","input":{"a":"x","a":"y"}}"#,  // a duplicate key: the tree path rejects it
        #"{"id":"c","id":"d","input":{}}"#,
        #"{"id":"","input":{}}"#,  // an empty id: an error there
        #"{"id":"c"}"#,  // no input
        #"{"id":"c","input":{}} x"#,  // trailing bytes
        #"{"id":"c","input":{},"reference":{"regex":"("}}"#,  // a regex that does not compile
        #"{"id":"c","input":{},"reference":{"labels":["a"]}}"#,
        #"{"id":"c","input":{"a":"\ud800"}}"#,  // a lone surrogate
    ])
    func otherLinesAreLeftToTheTreePath(_ line: String) {
        #expect(scanned(line) == nil)
    }
}
