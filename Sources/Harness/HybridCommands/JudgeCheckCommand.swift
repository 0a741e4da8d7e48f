import ArgumentParser
import Foundation
import HybridConfig
import HybridProviders
import HybridReport
import HybridRunner

/// `hybrid judge-check --judge MODEL --labels FILE`: the rubric judge scores answers people have scored, and its
/// agreement with them is measured before anyone believes its scores.
struct JudgeCheckCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "judge-check",
        abstract: "Measure a rubric judge against people: it scores answers they scored (1–5); prints weighted kappa and agreement.",
        discussion: """
            --labels is JSON lines {"id", "task", "answer", "score": 1–5}: a task, a sample answer and the score a \
            person gave it. The judge (the same one `eval --judge` uses, with --rubric) scores each answer; the \
            report gives exact and within-one agreement and the quadratic-weighted kappa with a bootstrap interval. \
            The judge is called reliable when at least 10 answers were scored and the kappa's lower bound reaches \
            --minimum-kappa (0.6); otherwise its scores should not decide anything.
            """)

    @OptionGroup var global: GlobalOptions
    @Option(help: "Model id of the judge.") var judge: String
    @Option(help: "Rubric text for the judge, or @FILE.") var rubric: String?
    @Option(help: "People's scores: JSON lines {\"id\", \"task\", \"answer\", \"score\"}.") var labels: String
    @Option(help: "The kappa lower bound a reliable judge reaches.") var minimumKappa = 0.6
    @Option(help: "Also write the figures as JSON here (what `recommend --judge-check` reads).") var out: String?


    struct Label {
        var id: String
        var task: String
        var answer: String
        var score: Int
    }

    func run() async throws {
        try await CLIOutput.run {
            let document = try await global.loadConfig().document
            guard let judgeModel = try JudgeOptions.makeJudge(judge, rubric: rubric, document: document, factory: ModelFactory.harness()) else {
                throw CLIError("--judge is required")
            }
            let (summary, text) = try await Self.measure(judgeModel, labels: labels, minimumKappa: minimumKappa)
            print(text)
            if let out {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
                try encoder.encode(summary).write(to: URL(fileURLWithPath: out))
            }
        }
    }

    /// The judge scores every labelled answer of `labels`; the figures and their text. Shared with `eval` and
    /// `rescore --judge-labels`, which store the figures with the run.
    static func measure(_ judge: LLMJudge, labels: String, minimumKappa: Double) async throws -> (JudgeReliabilitySummary, String) {
        let items = try read(labels)
        var judged: [(human: Int, judge: Int)] = []
        var unanswered: [String] = []
        var example: String?
        var tokens = 0
        var cost = 0.0
        for item in items {
            let verdict: LLMJudge.Verdict
            do {
                verdict = try await judge.judge(prompt: item.task, output: item.answer, reference: nil)
            } catch {
                throw CLIError("the judge failed on \(item.id) of \(labels): \(error)")
            }
            tokens += verdict.usage.promptTokens + verdict.usage.completionTokens
            cost += verdict.costUSD
            guard let score = verdict.score else {
                unanswered.append(item.id)
                example = example ?? verdict.rawAnswer
                continue
            }
            judged.append((item.score, Int((score * 4).rounded()) + 1))
        }
        let interval = JudgeReliability.weightedKappaInterval(judge: judged.map(\.judge), human: judged.map(\.human))
        let summary = JudgeReliabilitySummary(
            judge: judge.model.id, labels: labels, answers: items.count, scored: judged.count,
            kappa: JudgeReliability.weightedKappa(judge: judged.map(\.judge), human: judged.map(\.human)),
            kappaLower: interval?.lower, kappaUpper: interval?.upper, minimumKappa: minimumKappa)
        var text = render(summary, judged: judged, unanswered: unanswered, tokens: tokens, cost: cost)
        if let example { text += "\n  e.g. the judge answered \(String(reflecting: example)) where a score was asked for" }
        return (summary, text)
    }

    static func render(
        _ summary: JudgeReliabilitySummary, judged: [(human: Int, judge: Int)], unanswered: [String], tokens: Int, cost: Double
    ) -> String {
        let exact = judged.filter { $0.human == $0.judge }.count
        let near = judged.filter { abs($0.human - $0.judge) <= 1 }.count
        func share(_ count: Int) -> String {
            WilsonInterval(successes: count, trials: judged.count).map {
                String(format: "%d of %d (%.0f %% [%.0f %%, %.0f %%])", count, judged.count, $0.proportion * 100, $0.lower * 100, $0.upper * 100)
            } ?? "none"
        }
        let kappa = summary.kappa.map { k in
            String(format: "%.2f", k) + (summary.kappaLower.map { String(format: " [%.2f, %.2f] (bootstrap over answers)", $0, summary.kappaUpper ?? $0) } ?? "")
        } ?? "undefined (the judge or the people gave one score only)"
        var lines = [
            "judge \(summary.judge ?? "") against \(summary.answers) answers scored by people (\(summary.labels ?? "")):",
            "  scored by the judge: \(judged.count) of \(summary.answers)" + (unanswered.isEmpty ? "" : " (no 1–5 digit: \(unanswered.joined(separator: ", ")))"),
            "  exact agreement: \(share(exact)); within one point: \(share(near))",
            "  quadratic-weighted kappa: " + kappa,
            "  judge scores given: " + (1...5).map { s in "\(s): \(judged.filter { $0.judge == s }.count)" }.joined(separator: ", "),
            String(format: "  judge usage: %d tokens, $%.6f", tokens, cost),
        ]
        if summary.reliable {
            lines.append(String(format: "reliable: kappa's lower bound %.2f reaches %.2f on %d answers", summary.kappaLower ?? 0, summary.minimumKappa, judged.count))
        } else {
            let why = judged.count < 10 ? "\(judged.count) scored answers, 10 needed"
                : summary.kappaLower.map { String(format: "kappa's lower bound %.2f is below %.2f", $0, summary.minimumKappa) } ?? "kappa undefined"
            lines.append("NOT reliable enough to decide on (\(why)): its scores should not set a quality floor")
        }
        return lines.joined(separator: "\n")
    }

    /// The labels; a line that is not {"id", "task", "answer", "score": 1–5} is an error naming file and line.
    static func read(_ path: String) throws -> [Label] {
        let expected = "{\"id\", \"task\", \"answer\", \"score\": 1–5}"
        let items = try LabelFile.objects(path, expected: expected).map { line, object throws -> Label in
            guard let id = object["id"] as? String, let task = object["task"] as? String, let answer = object["answer"] as? String,
                let score = object["score"] as? Int, (1...5).contains(score)
            else { throw CLIError("\(path):\(line): expected \(expected)") }
            return Label(id: id, task: task, answer: answer, score: score)
        }
        guard !items.isEmpty else { throw CLIError("\(path) has no labelled answers") }
        return items
    }
}
