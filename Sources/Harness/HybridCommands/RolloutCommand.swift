import ArgumentParser
import Foundation
import HybridConfig
import HybridConfigTools
import HybridCurl
import HybridRecommend

/// `hybrid rollout …`: a change reaches installs in stages, guarded by its field metrics (`rollouts.F.plan`).
struct RolloutCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rollout",
        abstract: "Move a rollout arm through its plan's stages, guarded by field metrics; roll it back on harm.",
        discussion: """
            The plan is the config's rollouts.FEATURE.plan (stages, minStageHours, minInstallsPerArm, guardrails). \
            `start` publishes the first stage; each `step` reads the stage's field events from the store and holds, \
            advances (publishes the next stage, version + 1) or rolls back (the arm to 0 %); `step --watch 10m` \
            looks every interval until the rollout ends. State and decisions live in the store (--db), so any \
            machine may run the next step; a step killed between deciding and publishing is finished by the next.
            """,
        subcommands: [Start.self, Step.self, Status.self, Abort.self])

    struct Start: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Publish the first stage of FEATURE's plan (or adopt the stage already published).")
        @Argument(help: "The feature whose rollout to start.") var feature: String
        @OptionGroup var target: PublishTarget

        func validate() throws { try RolloutCommand.check(target) }

        func run() async throws {
            try await CLIOutput.run {
                let decision = try await target.driver().start(feature: feature, destination: target.destination)
                print(decision.line(feature: feature))
            }
        }
    }

    struct Step: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Judge the stage once (or every --watch interval until the rollout ends) and act.")
        @Argument(help: "The feature whose rollout to judge.") var feature: String
        @Option(help: "Look again after this interval (90s, 10m, 1h) until the rollout completes, rolls back or is aborted.")
        var watch: String?
        @OptionGroup var target: PublishTarget

        func validate() throws {
            try RolloutCommand.check(target)
            if let watch { _ = try RolloutCommand.interval(watch) }
        }

        func run() async throws {
            try await CLIOutput.run {
                let driver = try await target.driver()
                let pause = try watch.map(RolloutCommand.interval)
                while true {
                    let decision = try await driver.step(feature: feature)
                    print(decision.line(feature: feature))
                    guard let pause, try await driver.state(feature: feature)?.status == .running else { return }
                    try await Task.sleep(for: pause)
                }
            }
        }
    }

    struct Status: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show FEATURE's rollout: stages, guardrails over time, decisions.")
        @Argument(help: "The feature.") var feature: String
        @OptionGroup var database: DatabaseOption

        func run() async throws {
            try await CLIOutput.run {
                let store = try await database.store.fieldEvents()
                guard let record = try await store.rolloutRecord(feature: feature) else {
                    throw CLIError("no rollout of \(feature) in \(database.shown)")
                }
                print(RolloutStatusText.render(try RolloutState.decoded(record.body)))
            }
        }
    }

    struct Abort: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Stop FEATURE's rollout where it is (the config in force stays).")
        @Argument(help: "The feature.") var feature: String
        @Option(help: "Why, kept with the decision.") var reason = "aborted by hand"
        @OptionGroup var database: DatabaseOption

        func run() async throws {
            try await CLIOutput.run {
                let store = try await database.store.fieldEvents()
                let driver = RolloutDriver(
                    store: store, publisher: ConfigPublisher(transport: CurlTransport.shared, snapshots: nil),
                    options: ConfigPublisher.Options(promptFiles: .bundled))
                print(try await driver.abort(feature: feature, reason: reason).line(feature: feature))
            }
        }
    }

    /// A rollout publishes for real and each upload is conditional on the ETag it last recorded: a dry run would
    /// record stages no app sees, and one fixed `--if-match` fits one upload only.
    static func check(_ target: PublishTarget) throws {
        if target.dryRun { throw ValidationError("--dry-run: a rollout publishes each stage it decides; `hybrid rollout status` shows where it stands without publishing") }
        if target.ifMatch != nil { throw ValidationError("--if-match: each stage's upload is conditional on the ETag recorded by the one before; leave it out") }
    }

    /// `90s`, `10m`, `1h` or plain seconds (fractions allowed) as a duration.
    static func interval(_ text: String) throws -> Duration {
        let units: [Character: Double] = ["s": 1, "m": 60, "h": 3_600]
        let unit = text.last.flatMap { units[$0] }
        let number = unit == nil ? text : String(text.dropLast())
        guard let value = Double(number), value > 0, value.isFinite else {
            throw ValidationError("--watch: \(text) is not an interval (90s, 10m, 1h or seconds)")
        }
        return .milliseconds(Int((value * (unit ?? 1) * 1_000).rounded()))
    }
}

extension PublishTarget {
    /// The driver over this target's database (state, events, snapshots) and its publish options.
    func driver() async throws -> RolloutDriver {
        let location = try database.store
        return RolloutDriver(
            store: try await location.fieldEvents(), publisher: try await publisher(), options: try options(promptFiles: .bundled))
    }
}
