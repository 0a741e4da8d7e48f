/// A sequentially rejective graphical multiple-test procedure (Bretz, Maurer, Brannath & Posch, "A graphical
/// approach to sequentially rejective multiple test procedures", Statistics in Medicine 28, 2009): each hypothesis
/// starts with a share of α (its weight), and when one is rejected its share passes along the graph's edges to the
/// others, so a family spends α where it expects the evidence instead of splitting it evenly. Every such graph is a
/// shortcut of a closed test of weighted Bonferroni tests, so it controls the family-wise error rate strongly at α
/// for any weights and edges fixed before the data are seen. Holm is the graph with equal weights and equal edges.
public struct GraphicalProcedure: Sendable, Hashable {
    /// Each hypothesis's initial share of α; they sum to at most 1.
    public let weights: [Double]
    /// `transitions[j][k]`: the share of hypothesis j's weight that passes to k when j is rejected; each row sums to
    /// at most 1 and the diagonal is 0.
    public let transitions: [[Double]]

    /// A graph, or nil when a weight or edge is negative or not finite, the weights sum above 1, a row of edges sums
    /// above 1, a hypothesis has an edge to itself, or the sizes disagree.
    public init?(weights: [Double], transitions: [[Double]]) {
        let tolerance = 1e-9
        guard transitions.count == weights.count, weights.allSatisfy({ $0.isFinite && $0 >= 0 }),
            weights.reduce(0, +) <= 1 + tolerance
        else { return nil }
        for (j, row) in transitions.enumerated() {
            guard row.count == weights.count, row.allSatisfy({ $0.isFinite && $0 >= 0 }), row.reduce(0, +) <= 1 + tolerance,
                row[j] == 0
            else { return nil }
        }
        self.weights = weights
        self.transitions = transitions
    }

    /// The graph whose rejected hypotheses pass their weight equally to every other one still standing: with equal
    /// weights this is Holm; with unequal ones, a hypothesis that starts at 0 is tested once another is rejected.
    public static func passingEqually(weights: [Double]) -> GraphicalProcedure? {
        let m = weights.count
        let edges = (0..<m).map { j in (0..<m).map { k in j == k || m < 2 ? 0 : 1 / Double(m - 1) } }
        return GraphicalProcedure(weights: weights, transitions: edges)
    }

    /// The adjusted p-values of `pValues` (one per hypothesis, in order): hypothesis j is rejected at level α exactly
    /// when its adjusted p ≤ α (Bretz et al. 2009, Algorithm 1 run on the ratios p/w). NaN counts as 1.
    public func adjustedPValues(_ pValues: [Double]) -> [Double] {
        let m = weights.count
        guard pValues.count == m else { return pValues.map { _ in 1 } }
        let p = pValues.map { $0.isNaN ? 1 : min(1, max(0, $0)) }
        var graph = self
        var standing = Set(0..<m)
        var adjusted = [Double](repeating: 1, count: m)
        var running = 0.0
        func order(_ i: Int) -> (Double, Int) { (Self.ratio(p[i], graph.weights[i]), i) }
        while let next = standing.min(by: { order($0) < order($1) }) {
            running = max(running, min(1, Self.ratio(p[next], graph.weights[next])))
            adjusted[next] = running
            standing.remove(next)
            graph = graph.rejecting(next)
        }
        return adjusted
    }

    /// The graph after rejecting hypothesis `j` (Bretz et al. 2009, Algorithm 1, step 2): its weight passes along its
    /// edges, each pair of others gets the path through `j`, and `j` keeps neither weight nor edges, so a later
    /// rejection passes nothing to it. Group-sequential procedures (the field report's planned looks) step through
    /// the same graph, testing each hypothesis at its weight's share of α between rejections.
    func rejecting(_ j: Int) -> GraphicalProcedure {
        let m = weights.count
        var weights = self.weights
        var edges = transitions
        for l in 0..<m where l != j {
            weights[l] += self.weights[j] * transitions[j][l]
            for k in 0..<m where k != l && k != j {
                let denominator = 1 - transitions[l][j] * transitions[j][l]
                edges[l][k] = denominator > 0 ? (transitions[l][k] + transitions[l][j] * transitions[j][k]) / denominator : 0
            }
        }
        weights[j] = 0
        for l in 0..<m {
            edges[l][j] = 0
            edges[j][l] = 0
        }
        return GraphicalProcedure(checked: weights, transitions: edges)
    }

    /// A graph already known to be valid (one derived from a valid graph).
    private init(checked weights: [Double], transitions: [[Double]]) {
        self.weights = weights
        self.transitions = transitions
    }

    /// p/w, infinite for a hypothesis without weight.
    private static func ratio(_ p: Double, _ w: Double) -> Double { w > 0 ? p / w : .infinity }
}
