package import HybridRouter

extension Array where Element == RoutedStreamEvent {
    /// The text the app shows at the end of a stream: the deltas since the last reset.
    package var screen: String {
        reduce(into: "") { text, event in
            switch event {
            case .delta(let piece): text += piece
            case .reset: text = ""
            default: break
            }
        }
    }

    /// The stream's routed response, if it completed.
    package var completed: RoutedResponse? {
        lazy.compactMap { if case .completed(let routed) = $0 { routed } else { nil } }.first
    }
}
