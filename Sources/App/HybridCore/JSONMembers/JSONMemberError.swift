/// Why bytes are not the value a ``JSONMembers`` table reads: the JSON path of the member at fault
/// (`attempts[0].startMs`) and what is wrong with it, so a collector can say which field to fix.
package struct JSONMemberError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The member's path from the value being read; empty for the value itself.
    var path: String
    /// What is wrong (`missing`, `expected a number`, `duplicate member`).
    var problem: String

    package init(path: String = "", _ problem: String) {
        self.path = path
        self.problem = problem
    }

    /// The same error seen from the value that holds this one under `member` (a name, or `[N]` for an element).
    package func inside(_ member: String) -> JSONMemberError {
        let joined = path.isEmpty || path.hasPrefix("[") ? member + path : member + "." + path
        return JSONMemberError(path: joined, problem)
    }

    /// `path: problem`, with `root` naming the value itself when the path is empty.
    package func described(root: String = "event") -> String {
        "\(path.isEmpty ? root : path): \(problem)"
    }

    package var description: String { described() }
}
