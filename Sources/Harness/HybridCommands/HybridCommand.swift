package import ArgumentParser
import HybridConfig
import HybridCore
import HybridRouter

/// The `hybrid` command tree. Two executables run it: `hybrid` and `hybrid-otlp`, which adds the OTLP exporter
/// behind `--otlp-endpoint` (``SpanExporters``), so the default build never compiles swift-otel.
package struct HybridCommand: AsyncParsableCommand {
    package static let configuration = CommandConfiguration(
        // `hybrid` or `hybrid-otlp`: usage lines name the executable that printed them.
        commandName: CommandLine.arguments.first.flatMap { $0.split(separator: "/").last.map(String.init) } ?? "hybrid",
        abstract: "Evaluate on-device and cloud language models on the same data, and route between them.",
        discussion: """
            Models, prompts, prices and priority orders come from the config in force: the bundled defaults, or \
            --config FILE|URL. API keys are read from the environment variables the config names and are never \
            printed or stored.

            Exit codes: 0 success; 1 the work failed (the message says why and what to do); 2 a check's schema or \
            constraints file is unusable (check); 3 a quality gate failed (eval --gate, report --gate, compare); \
            4 merged, but planned keys are missing (merge); 5 eval measured nothing on a model the feature depends \
            on (--allow-unavailable accepts it); 64 usage error; 130 interrupted (Ctrl-C; `hybrid eval --resume RUN` \
            finishes an interrupted run).
            """,
        subcommands: [
            AskCommand.self, ModelsCommand.self, EvalCommand.self, CheckCommand.self, ReportCommand.self,
            CompareCommand.self, ConfigCommand.self, SimulateCommand.self, RecommendCommand.self, RescoreCommand.self,
            ViewCommand.self, MergeCommand.self, CollectCommand.self, IngestCommand.self, RolloutCommand.self,
            JudgePairsCommand.self, JudgeCheckCommand.self, PlanCommand.self,
        ]
    )

    /// Parsed here as well as in the subcommands, so `--config`, `--db` and `--verbose` may come first.
    @OptionGroup(title: "Global Options") var global: GlobalOptions

    package init() {}

    /// Both executables' entry point: ArgumentParser's, after the allocator settings that must precede every thread
    /// (``MemoryTuning``).
    package static func runCommandLine() async {
        MemoryTuning.apply()
        do {
            var command = try parseAsRoot(nil)
            if var command = command as? any AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
        } catch {
            exit(withError: forDevelopers(error))
        }
    }

    /// The library's errors read as a sentence for an app's user through `localizedDescription`, which is what
    /// ArgumentParser prints; a CLI user is a developer and gets the diagnostic (`description`: paths, URLs, attempts).
    static func forDevelopers(_ error: any Error) -> any Error {
        switch error {
        case let error as ConfigError: CLIError(error.description)
        case let error as RouterError: CLIError(error.description)
        case let error as GenerationError: CLIError(error.description)
        default: error
        }
    }
}
