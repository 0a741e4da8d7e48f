import Foundation
import HybridConfig
import HybridCore
import HybridRecommend
import HybridReport
@testable import HybridRouter
import HybridStore
import Testing

/// Hedged runs through the real router and the simulator: two calls race on one virtual clock, and the replay
/// executor must end them in the simulator's order, ties included.
@Suite("Simulator against the real router, hedged")
struct RouterCheckHedgeTests {
    static let models = RouterCheckPropertyTests.models
    /// Latencies, timeouts, deadlines and hedge delays share one coarse grid, so an answer often arrives exactly at
    /// the hedge time, at a timeout, at the deadline, or at the same instant as the other call of the race.
    static let latencies: [Double] = [0, 100, 200, 300, 400, 500, 700, 1000, 1500, 2500]
    static let delays = [100, 200, 300, 500, 700, 1000]

    /// Three calls in four priced; answers and failures alike after a latency from the grid.
    static let draws = RouterCheckPropertyTests.Draws(
        cost: { rng in Int.random(in: 0..<4, using: &rng) == 0 ? nil : Double(Int.random(in: 1...5000, using: &rng)) / 1e6 },
        latency: { rng, _ in latencies.randomElement(using: &rng)! })

    /// As `draws`, streamed: three answers in four have a time to first token on the grid, at or before their end.
    static let streamedDraws = RouterCheckPropertyTests.Draws(
        cost: draws.cost, latency: draws.latency,
        ttft: { rng, latency in
            Int.random(in: 0..<4, using: &rng) == 0 ? nil : latencies.filter { $0 <= latency }.randomElement(using: &rng)
        })

    /// A random hedged policy over two or three models: output checks, maybe an attempt timeout and a deadline on
    /// the grid, a hedge delay on the grid, sometimes limited to a tier or a share.
    static func policy(_ rng: inout SplitMix64) -> ReplayPolicy {
        let order = Array(models.shuffled(using: &rng).prefix(Int.random(in: 2...3, using: &rng)))
        var fallback: [FallbackCondition] = []
        let outputs: [FallbackCondition] = [.adherence, .check("schema"), .check("max_words"), .check("json_parses")]
        for condition in outputs where Int.random(in: 0..<3, using: &rng) == 0 { fallback.append(condition) }
        if Bool.random(using: &rng) { fallback.append(.timeout(milliseconds: [300, 500, 1000, 1500].randomElement(using: &rng)!)) }
        let stops = Set(RouterCheckPropertyTests.errorKinds.filter { _ in Int.random(in: 0..<5, using: &rng) == 0 })
        let deadline: Int? = Bool.random(using: &rng) ? [500, 1000, 1500, 2500].randomElement(using: &rng)! : nil
        let tiers: [ModelTier]? = Int.random(in: 0..<6, using: &rng) == 0 ? [.thirdParty] : nil  // none may race
        let share: Double? = Bool.random(using: &rng) ? [0.1, 0.3].randomElement(using: &rng)! : nil  // counted across the run
        // Every model's estimate for the replayed input is about $0.0003 and stored bills spread to $0.005: one cap
        // blocks every race, the other only races whose stored bill (not the estimate the router judges) is higher.
        let cap: Double? = Int.random(in: 0..<3, using: &rng) == 0 ? [0.0001, 0.001].randomElement(using: &rng)! : nil
        return ReplayPolicy(
            order: order, variant: "concise", fallback: fallback, stopOn: stops, deadlineMs: deadline,
            whenChecksFail: Bool.random(using: &rng) ? .returnBest : .throwError,
            hedge: HedgeConfig(
                afterMs: delays.randomElement(using: &rng)!, tiers: tiers, maxExtraCostPerRequestUSD: cap, maxHedgedShare: share))
    }

    /// Whether the router ran two calls at once in this case (a call started before the previous one ended).
    static func raced(_ attempts: [RouteAttempt]) -> Bool {
        let calls = attempts.filter(\.calledModel).sorted { $0.startedAt < $1.startedAt }
        return zip(calls, calls.dropFirst()).contains { $1.startedAt < $0.startedAt + $0.duration }
    }

    /// A stored run of `cases` cases on a free device then a priced cloud (every case alike: these latencies, times
    /// to first token and the cloud's bill), and the config routing `local → cloud` under `routing`.
    static func deviceThenCloud(
        cases: Int, deviceMs: Double, cloudMs: Double, deviceTTFT: Double? = nil, cloudTTFT: Double? = nil,
        cloudBill: Double = 0.001, routing: RoutingConfig? = nil
    ) async throws -> (store: SQLiteResultStore, document: HybridConfigDocument) {
        let device = ArmSpec(model: "local", tier: .onDevice, latencyMs: { _ in deviceMs }, ttftMs: { _ in deviceTTFT }, costUSD: 0)
        let cloud = ArmSpec(model: "cloud", tier: .thirdParty, latencyMs: { _ in cloudMs }, ttftMs: { _ in cloudTTFT }, costUSD: cloudBill)
        let store = try await StoredRunFixture.store(cases: cases, arms: [device, cloud])
        var document = try RouteSimulatorHedgeTests.deviceThenCloud()
        document.features["summarize"]?.routing = routing
        return (store, document)
    }

    /// One case, a device then a cloud, checked under `hedge` and `deadlineMs`.
    static func checkOneCase(deviceMs: Double, cloudMs: Double, hedgeAfterMs: Int, deadlineMs: Int? = nil) async throws -> RouterCheckReport {
        let (store, base) = try await deviceThenCloud(
            cases: 1, deviceMs: deviceMs, cloudMs: cloudMs, routing: RoutingConfig(hedge: HedgeConfig(afterMs: hedgeAfterMs)))
        var document = base
        document.features["summarize"]?.deadlineMs = deadlineMs
        return try await RouterCheck(document: document).run(store: store, run: "run-1")
    }

    @Test("an answer arriving exactly at the hedge time wins: no race, the cloud is never called")
    func answerAtTheHedgeTimeWins() async throws {
        let report = try await Self.checkOneCase(deviceMs: 500, cloudMs: 100, hedgeAfterMs: 500)
        #expect(report.allAgree, "\(report.render())")
        let only = try #require(report.cases.first)
        #expect(only.router.servedBy == "local" && only.router.latencyMs == 500 && only.router.costUSD == 0)
        #expect(only.attempts.map(\.outcome) == [.served])
    }

    @Test("the raced answer arriving exactly when the first call is cut at the deadline: the first call's cut is read first")
    func firstCallsCutBeatsARacedAnswerAtTheSameInstant() async throws {
        // The device is cut at 1,000 ms; the cloud, raced at 700 ms, answers at 1,000 ms too. The simulator reads the
        // call started first (the cut) first, so the request ends at its deadline with nothing served; the replay
        // wakes the sleeper begun first, so the router agrees.
        let report = try await Self.checkOneCase(deviceMs: 1_500, cloudMs: 300, hedgeAfterMs: 700, deadlineMs: 1_000)
        #expect(report.allAgree, "\(report.render())")
        let only = try #require(report.cases.first)
        #expect(only.attempts.map(\.outcome) == [.cancelledAtDeadline, .cancelledAtDeadline])
        #expect(only.router.deliveredBy == nil && only.router.latencyMs == 1_000)
        #expect(abs(only.router.costUSD - 0.001) < 1e-12, "the raced call is charged")
    }

    @Test("a hedge's cost cap between the stored bill and the router's estimate: both judge by the estimate and race")
    func costCapJudgedByTheRoutersEstimate() async throws {
        let (store, base) = try await Self.deviceThenCloud(cases: 3, deviceMs: 2_500, cloudMs: 300, cloudBill: 0.01)
        var document = base
        let planner = Router(unvalidated: .fixed(document), models: .models([:]), installId: "router-check")
        let input = Dictionary(uniqueKeysWithValues: try #require(document.features["summarize"]).inputs.map { ($0, "replayed input") })
        let estimate = try #require(try await planner.plannedCosts(feature: "summarize", input: input)["cloud"])
        #expect(estimate > 0 && estimate < 0.005, "the stored bill (0.01) is well above the router's estimate")
        let cap = (estimate + 0.01) / 2  // above the estimate, below the bill
        document.features["summarize"]?.routing = RoutingConfig(hedge: HedgeConfig(afterMs: 300, maxExtraCostPerRequestUSD: cap))
        let report = try await RouterCheck(document: document).run(store: store, run: "run-1")
        #expect(report.allAgree, "\(report.render())")
        #expect(report.cases.count == 3 && report.cases.allSatisfy { Self.raced($0.attempts) && $0.router.servedBy == "cloud" })
    }

    @Test("a streamed run is replayed as streams too: under progressive streaming the first text wins the race, not the first end")
    func firstTextWinsAStreamedRace() async throws {
        // The device answers at 1,000 ms with its first text at 350 ms; the cloud, raced at 300 ms, sends text at
        // 330 ms and ends at 2,300 ms. generate: the device ends first and wins; stream: the cloud's text is first.
        let (store, document) = try await Self.deviceThenCloud(
            cases: 2, deviceMs: 1_000, cloudMs: 2_000, deviceTTFT: 350, cloudTTFT: 30, routing: RoutingConfig(hedge: HedgeConfig(afterMs: 300)))
        let report = try await RouterCheck(document: document).run(store: store, run: "run-1")
        #expect(report.allAgree, "\(report.render())")
        #expect(report.cases.count == 4)
        for item in report.cases {
            #expect(item.router.servedBy == (item.streamed ? "cloud" : "local"), "\(report.render())")
            #expect(item.router.latencyMs == (item.streamed ? 2_300 : 1_000))
        }
        #expect(report.render().contains("(stream)"))
    }

    @Test("random hedged policies over random streamed tables with ties: streams replayed through the router agree with the simulator")
    func hedgedStreamAgreement() async throws {
        guard let (checked, raced) = try await Self.agreement(seeds: 1...30, draws: Self.streamedDraws, counting: \.streamed) else { return }
        #expect(checked == 30 * 3 * 12)
        #expect(raced > checked / 10, "only \(raced) of \(checked) streamed cases raced two calls")
    }

    @Test("maxHedgedShare binds across the run: the routers of one check share one count, and the simulator counts alike")
    func shareCapAcrossTheRun() async throws {
        let (store, document) = try await Self.deviceThenCloud(
            cases: 10, deviceMs: 2_500, cloudMs: 300, routing: RoutingConfig(hedge: HedgeConfig(afterMs: 300, maxHedgedShare: 0.2)))
        let report = try await RouterCheck(document: document).run(store: store, run: "run-1")
        #expect(report.allAgree, "\(report.render())")
        // Every case is slow; the first may race, then a race only while under 20 % of the requests so far: 1 and 7.
        let raced = report.cases.enumerated().filter { Self.raced($0.element.attempts) }.map(\.offset)
        #expect(raced == [0, 6], "\(report.render())")
    }

    @Test("the same cap in simulate and recommend: with the dataset's inputs the simulator judges the router's estimate and races too")
    func simulatorJudgesTheRoutersEstimate() async throws {
        let (store, document) = try await Self.deviceThenCloud(cases: 3, deviceMs: 2_500, cloudMs: 300, cloudBill: 0.01)
        var simulator = try await RouteSimulator.load(from: store, run: "run-1")
        let input = Dictionary(uniqueKeysWithValues: try #require(document.features["summarize"]).inputs.map { ($0, "replayed input") })
        let policy = { (cap: Double) in
            ReplayPolicy(order: ["local", "cloud"], variant: "concise", hedge: HedgeConfig(afterMs: 300, maxExtraCostPerRequestUSD: cap))
        }
        #expect(try simulator.simulate(policy(0.005)).hedge?.hedged.successes == 0, "the stored bill ($0.01) is over the cap")
        let estimated = await simulator.estimateCallCosts(
            document: document, inputs: Dictionary(uniqueKeysWithValues: simulator.table.cases.map { ($0.caseID, input) }))
        #expect(estimated == 3)
        #expect(try simulator.simulate(policy(0.005)).hedge?.hedged.successes == 3, "the router's estimate is under it: every request races")
        #expect(try simulator.simulate(policy(0.000_001)).hedge?.hedged.successes == 0)
    }

    @Test("random hedged policies over random tables with ties: the router does what the simulator predicts, every case")
    func hedgedAgreement() async throws {
        guard let (checked, raced) = try await Self.agreement(seeds: 1...40, draws: Self.draws, counting: { _ in true }) else { return }
        #expect(checked == 40 * 3 * 12)
        #expect(raced > checked / 10, "only \(raced) of \(checked) cases raced two calls")
    }

    /// Three random hedged policies over each of `seeds` random tables drawn with `draws`; every case must agree (nil
    /// after recording the first that does not). Returns the cases `counting` selects and how many of them raced.
    static func agreement(
        seeds: ClosedRange<UInt64>, draws: RouterCheckPropertyTests.Draws, counting: (RouterCheckReport.Case) -> Bool
    ) async throws -> (checked: Int, raced: Int)? {
        let base = try RouterCheckPropertyTests.document(models: Self.models)
        var checked = 0, raced = 0
        for seed in seeds {
            var rng = SplitMix64(seed: seed)
            let store = try await RouterCheckPropertyTests.storeTable(&rng, cases: 12, document: base, draws: draws)
            for _ in 0..<3 {
                guard let report = try await RouterCheckPropertyTests.agreeingReport(Self.policy(&rng), base: base, store: store, seed: seed)
                else { return nil }
                let counted = report.cases.filter(counting)
                checked += counted.count
                raced += counted.count { Self.raced($0.attempts) }
            }
        }
        return (checked, raced)
    }
}
