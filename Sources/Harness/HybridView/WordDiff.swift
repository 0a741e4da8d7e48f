/// A word-level diff of two texts by longest common subsequence: the words both share in order are kept, the
/// rest are deletions (only in the first) and insertions (only in the second).
///
/// Words are maximal runs of non-whitespace; whitespace is not compared. Common leading and trailing words are
/// matched before the quadratic table is built, so two long outputs that differ in one sentence stay cheap; when
/// what is left would still need more than ``maximumCells`` table cells, the middle is shown as replaced whole.
struct WordDiff: Sendable, Hashable {
    /// One run of consecutive words with the same status.
    struct Segment: Sendable, Hashable {
        enum Kind: Sendable, Hashable { case same, deleted, inserted }
        var kind: Kind
        var words: [Substring]

        var text: String { words.joined(separator: " ") }
    }

    /// Above this many table cells (words × words after trimming) the middle is not aligned word by word.
    static let maximumCells = 4_000_000

    /// The segments in reading order: a deletion comes before the insertion that replaces it.
    private(set) var segments: [Segment] = []
    /// True when the texts were too long to align word by word and the middle was replaced whole.
    private(set) var truncated = false

    init(_ first: String, _ second: String) {
        let a = first.split(whereSeparator: \.isWhitespace)
        let b = second.split(whereSeparator: \.isWhitespace)
        var prefix = 0
        while prefix < min(a.count, b.count), a[prefix] == b[prefix] { prefix += 1 }
        var suffix = 0
        while suffix < min(a.count, b.count) - prefix, a[a.count - 1 - suffix] == b[b.count - 1 - suffix] { suffix += 1 }
        append(.same, a[0..<prefix])
        let middleA = Array(a[prefix..<(a.count - suffix)])
        let middleB = Array(b[prefix..<(b.count - suffix)])
        if middleA.count * middleB.count > Self.maximumCells {
            truncated = true
            append(.deleted, middleA[...])
            append(.inserted, middleB[...])
        } else {
            alignMiddle(middleA, middleB)
        }
        append(.same, a[(a.count - suffix)...])
    }

    /// Classic LCS table from the end, then a forward walk that prefers deletions before insertions.
    private mutating func alignMiddle(_ a: [Substring], _ b: [Substring]) {
        let width = b.count + 1
        var lengths = [Int32](repeating: 0, count: (a.count + 1) * width)
        for i in stride(from: a.count - 1, through: 0, by: -1) {
            for j in stride(from: b.count - 1, through: 0, by: -1) {
                lengths[i * width + j] = a[i] == b[j]
                    ? lengths[(i + 1) * width + j + 1] + 1
                    : max(lengths[(i + 1) * width + j], lengths[i * width + j + 1])
            }
        }
        var i = 0
        var j = 0
        while i < a.count || j < b.count {
            if i < a.count, j < b.count, a[i] == b[j] {
                append(.same, [a[i]])
                i += 1
                j += 1
            } else if j == b.count || (i < a.count && lengths[(i + 1) * width + j] >= lengths[i * width + j + 1]) {
                append(.deleted, [a[i]])
                i += 1
            } else {
                append(.inserted, [b[j]])
                j += 1
            }
        }
    }

    /// Adds words, merging them into the last segment when it has the same kind.
    private mutating func append(_ kind: Segment.Kind, _ words: some Collection<Substring>) {
        guard !words.isEmpty else { return }
        if segments.last?.kind == kind {
            segments[segments.count - 1].words += words
        } else {
            segments.append(Segment(kind: kind, words: Array(words)))
        }
    }

    /// Words only in the first text.
    var deletedCount: Int { segments.filter { $0.kind == .deleted }.reduce(0) { $0 + $1.words.count } }
    /// Words only in the second text.
    var insertedCount: Int { segments.filter { $0.kind == .inserted }.reduce(0) { $0 + $1.words.count } }

    /// The diff as one paragraph: shared words plain, deletions in `<del>`, insertions in `<ins>`.
    var html: HTML {
        var html = HTML()
        for (index, segment) in segments.enumerated() {
            if index > 0 { html.text(" ") }
            switch segment.kind {
            case .same: html.text(segment.text)
            case .deleted: html.element("del", text: segment.text)
            case .inserted: html.element("ins", text: segment.text)
            }
        }
        return html
    }
}
