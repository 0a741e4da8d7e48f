/// Why a conversation turn produced no final answer. The transcript is left as it was before the turn; `steps`
/// lists what happened, including tool calls whose handlers already ran.
public struct ConversationError: Error, Sendable, Equatable, CustomStringConvertible {
    enum Kind: Sendable, Equatable {
        case routing(RouterError)
        case stepLimit(Int)
        case deadline
        case busy
    }

    let kind: Kind
    /// The feature the conversation serves.
    public let feature: String
    /// The steps completed before the failure.
    public let steps: [ConversationStep]

    init(_ kind: Kind, feature: String, steps: [ConversationStep] = []) {
        self.kind = kind
        self.feature = feature
        self.steps = steps
    }

    /// The router's error when a step could not be served (every model failed, the deadline passed in a call…).
    public var routerError: RouterError? {
        if case .routing(let error) = kind { return error }
        return nil
    }

    /// True when the model was still calling tools after the step limit.
    public var isStepLimit: Bool {
        if case .stepLimit = kind { return true }
        return false
    }

    /// True when the turn's deadline passed (in a model call or in a tool handler).
    public var isDeadline: Bool {
        switch kind {
        case .deadline: true
        case .routing(let error): error.code == .deadlineExceeded
        default: false
        }
    }

    public var description: String {
        switch kind {
        case .routing(let error):
            "\(feature): conversation step \(steps.count + 1) failed: \(error)"
        case .stepLimit(let limit):
            "\(feature): the model was still calling tools after \(limit) steps; raise the conversation's stepLimit or check the tools' descriptions"
        case .deadline:
            "\(feature): the turn's deadline passed while a tool handler ran (after \(steps.count) steps)"
        case .busy:
            "\(feature): a turn is already running on this conversation; wait for it before sending the next"
        }
    }
}
