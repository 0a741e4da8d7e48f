/// What a feature's `RouteEvent`s may hold beyond the always-present figures (`features.X.events`).
public struct FeatureEventsConfig: Sendable, Hashable, Encodable {
    /// Put the request's input variables and the answer's text into each event (`RouteEvent.content`). Off by
    /// default: prompts, inputs and outputs leave the device only when a feature opts in here.
    public var includeContent: Bool

    /// Creates the events block; content stays out unless `includeContent` is true.
    public init(includeContent: Bool = false) {
        self.includeContent = includeContent
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case includeContent
    }

}
