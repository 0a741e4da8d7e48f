@testable import HybridView
import Testing

@Suite("word diff and markup")
struct WordDiffTests {
    private func render(_ diff: WordDiff) -> String { diff.html.markup }

    @Test("a changed word becomes a deletion followed by an insertion; shared words stay plain")
    func replacement() {
        let diff = WordDiff("the quick brown fox jumps", "the quick red fox jumps high")
        #expect(render(diff) == "the quick <del>brown</del> <ins>red</ins> fox jumps <ins>high</ins>")
        #expect(diff.deletedCount == 1)
        #expect(diff.insertedCount == 2)
        #expect(!diff.truncated)
    }

    @Test("the longest common subsequence is kept even when the change is in the middle of repeated words")
    func longestCommonSubsequence() {
        // LCS of "a b c a b" and "b a c b" has length 3 (e.g. "a c b" or "b c b"); 2 deletions and 1 insertion.
        let diff = WordDiff("a b c a b", "b a c b")
        #expect(diff.deletedCount == 2)
        #expect(diff.insertedCount == 1)
        let kept = diff.segments.filter { $0.kind == .same }.flatMap(\.words)
        #expect(kept.count == 3)
    }

    @Test("whitespace differences are not changes; identical texts have no markup")
    func whitespace() {
        let diff = WordDiff("one  two\nthree", "one two three")
        #expect(render(diff) == "one two three")
    }

    @Test("model output is escaped inside ins and del")
    func escaping() {
        let diff = WordDiff("<b>old</b>", "<script>alert(1)</script>")
        #expect(render(diff) == "<del>&lt;b&gt;old&lt;/b&gt;</del> <ins>&lt;script&gt;alert(1)&lt;/script&gt;</ins>")
    }

    @Test("texts too long to align word by word are shown replaced whole, with common ends kept")
    func truncatedMiddle() {
        let a = (0..<2_100).map { "a\($0)" }.joined(separator: " ")
        let b = (0..<2_100).map { "b\($0)" }.joined(separator: " ")
        let diff = WordDiff("start " + a + " end", "start " + b + " end")
        #expect(diff.truncated)
        #expect(diff.segments.map(\.kind) == [.same, .deleted, .inserted, .same])
    }

    @Test("attribute values and text are escaped; nil attributes are left out")
    func htmlBuilder() {
        var html = HTML()
        html.element("a", [("href", "/grid?run=a&q=\"x\""), ("title", nil)], text: "<i>'hi'</i>")
        #expect(html.markup == "<a href=\"/grid?run=a&amp;q=&quot;x&quot;\">&lt;i&gt;&#39;hi&#39;&lt;/i&gt;</a>")
    }

    @Test("links percent-encode every reserved character and the query parser decodes them back, + as space")
    func linkRoundTrip() {
        let odd = "run/1 & ü+%#?"
        let link = ViewLink("/grid", [("run", odd), ("skip", nil), ("q", "two words")])
        let query = String(link.href.split(separator: "?", maxSplits: 1)[1])
        let parsed = QueryParameters(query)
        #expect(parsed["run"] == odd)
        #expect(parsed["q"] == "two words")
        #expect(parsed["skip"] == nil)
        #expect(QueryParameters("q=two+words&failing=on")["q"] == "two words")
        #expect(QueryParameters("failing=on").flag("failing"))
    }

    @Test("a judge's score shows its rationale or its answer, not the stored JSON; other details stay as written")
    func judgeDetailsAreReadable() {
        #expect(ResultCellMarkup.readable(#"{"judge_model":"grader","rationale":"keeps the <b>point</b>"}"#) == "grader: keeps the <b>point</b>")
        #expect(ResultCellMarkup.readable(#"{"answer":"The city council of","cost_usd":0,"judge_model":"local"}"#) == #"local: answered "The city council of""#)
        #expect(ResultCellMarkup.readable("matched 3 of 4 fields") == "matched 3 of 4 fields")
    }
}
