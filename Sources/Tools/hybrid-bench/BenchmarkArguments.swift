/// The benchmark name and its `--name value` options.
struct BenchmarkArguments: Sendable {
    /// The first argument: which benchmark to run.
    let command: String?
    private let options: [String: String]

    init(_ arguments: some Sequence<String>) {
        var command: String?
        var options: [String: String] = [:]
        var pendingName: String?
        for argument in arguments {
            if let name = pendingName {
                options[name] = argument
                pendingName = nil
            } else if argument.hasPrefix("--") {
                pendingName = String(argument.dropFirst(2))
            } else if command == nil {
                command = argument
            }
        }
        self.command = command
        self.options = options
    }

    /// The integer given as `--name N`, or `defaultValue` when absent or not a positive number.
    func int(_ name: String, default defaultValue: Int) -> Int {
        options[name].flatMap { Int($0) }.flatMap { $0 > 0 ? $0 : nil } ?? defaultValue
    }

    /// Comma-separated integers given as `--name 1,2`, or `defaultValue` when absent or not all numbers.
    func list(_ name: String, default defaultValue: [Int]) -> [Int] {
        guard let values = options[name]?.split(separator: ",").map({ Int($0) }), !values.isEmpty, !values.contains(nil)
        else { return defaultValue }
        return values.compactMap { $0 }
    }

    /// Comma-separated words given as `--name a,b`, or `defaultValue` when absent.
    func strings(_ name: String, default defaultValue: [String]) -> [String] {
        options[name].map { $0.split(separator: ",").map(String.init) } ?? defaultValue
    }

    /// The text given as `--name value`, or nil when absent.
    func string(_ name: String) -> String? { options[name] }
}
