public import HybridCore
public import HybridConfig

/// A routed answer decoded into the app's type, with the routing facts beside it.
public struct RoutedValue<Content: Sendable>: Sendable {
    /// The decoded answer.
    public var content: Content
    /// Who served, every attempt, the rollout arm and the variant.
    public var routed: RoutedResponse
}

/// One step of a typed stream: what has been generated so far, as far as it is complete.
public struct PartialSnapshot<Content: StructuredOutput>: Sendable {
    /// The complete part of the JSON so far (members appear as their values complete; see ``PartialJSON``).
    public var json: JSONValue
    /// The answer so far with every property optional, usable from the first snapshot: `partial.name` is nil
    /// until the name has arrived (see ``PartialValue``).
    public var partial: PartialValue<Content>
    /// The snapshot decoded into the type, once everything the type requires has arrived; nil before.
    public var content: Content?
    /// The routed response, on the last snapshot only (then `content` is the final value).
    public var completed: RoutedResponse?
}

extension Router {
    /// `feature`'s answer decoded into `type`: the type's schema (see ``StructuredOutput``) goes to every model in its
    /// native form and replaces the feature's `outputSchema` for this call; an answer that breaks that schema (a
    /// guide included) or does not decode falls back to the next model, whatever the config's `fallbackOnOutput`.
    /// `labels` are what input rules may test (`label.NAME`), as for the text `generate`.
    public func generate<T: StructuredOutput>(
        feature: String, input: [String: String], generating type: T.Type, privacy: PrivacyClass? = nil,
        deadline: Duration? = nil, labels: [String: String] = [:]
    ) async throws(RouterError) -> RoutedValue<T> {
        let output = try Self.typedOutput(T.self, feature: feature)
        var request = RequestTrace(feature: feature, input: input, privacy: privacy, deadline: deadline, labels: labels)
        request.output = output
        let routed = try await traced(request) { plan async throws(RouterError) in try await walkGenerate(plan) }.get()
        return try Self.decode(T.self, Self.parsed(routed, schema: output.schema), routed, feature: feature)
    }

    /// `feature`'s answer as it is generated, decoded into `type` step by step: each snapshot holds the complete part
    /// of the JSON so far, and the last one the final value and the routed response. Iteration throws
    /// `RouterError` only. `labels` are what input rules may test (`label.NAME`), as for `generate`.
    public func streamResponse<T: StructuredOutput>(
        feature: String, input: [String: String], generating type: T.Type, privacy: PrivacyClass? = nil,
        deadline: Duration? = nil, labels: [String: String] = [:]
    ) -> RouterStream<PartialSnapshot<T>> {
        let request = RequestTrace(feature: feature, input: input, privacy: privacy, deadline: deadline, labels: labels)
        return RouterStream(snapshots(request, generating: type), feature: feature)
    }

    private func snapshots<T: StructuredOutput>(
        _ request: RequestTrace, generating type: T.Type
    ) -> AsyncThrowingStream<PartialSnapshot<T>, any Error> {
        let (stream, continuation) = AsyncThrowingStream<PartialSnapshot<T>, any Error>.makeStream()
        let output: TypedOutput
        do {
            output = try Self.typedOutput(T.self, feature: request.feature)
        } catch {
            continuation.finish(throwing: error)
            return stream
        }
        var request = request
        request.output = output
        let events = self.stream(request)
        let task = Task.starting(on: clock.taskExecutor) {
            do {
                let placeholders = PartialValue<T>.Placeholders(schema: output.schema.source)
                var text = ""
                var last: JSONValue?
                for try await event in events {
                    switch event {
                    case .attempt: continue
                    case .reset:
                        // The next model answers afresh: its snapshots build up from nothing again, never a mix.
                        text = ""
                        last = nil
                    case .delta(let delta):
                        text += delta
                        // Nothing is sent before something is known (`{}` says nothing); a value decodes only once
                        // the document is whole, never from a string still growing.
                        guard let (json, whole) = PartialJSON.read(text), json != last, !Self.isEmptyContainer(json) else { continue }
                        last = json
                        continuation.yield(PartialSnapshot(
                            json: json, partial: PartialValue(json: json, placeholders: placeholders),
                            content: whole ? try? JSONValueDecoder().decode(T.self, from: json) : nil, completed: nil))
                    case .completed(let routed):
                        let json = Self.parsed(routed, schema: output.schema)
                        let value = try Self.decode(T.self, json, routed, feature: request.feature)
                        continuation.yield(PartialSnapshot(
                            json: json ?? .null, partial: PartialValue(json: json ?? .null, placeholders: placeholders),
                            content: value.content,
                            completed: routed))
                    }
                }
                continuation.finish()
            } catch {
                continuation.finish(throwing: error)
            }
        }
        continuation.onTermination = { _ in task.cancel() }
        return stream
    }

    static func isEmptyContainer(_ json: JSONValue) -> Bool {
        switch json {
        case .object(let members): members.isEmpty
        case .array(let items): items.isEmpty
        default: false
        }
    }

    /// The type's schema and decoding check; a type without a valid schema fails the request before any model is
    /// called.
    static func typedOutput<T: StructuredOutput>(_ type: T.Type, feature: String) throws(RouterError) -> TypedOutput {
        do {
            return TypedOutput(schema: try T.jsonSchema, decodes: DecodeCheck(T.self))
        } catch {
            throw .invalidOutputType(feature: feature, error)
        }
    }

    /// The answer as JSON: the provider's parse when it made one, else the checks' (code fences and all).
    static func parsed(_ routed: RoutedResponse, schema: JSONSchema) -> JSONValue? {
        routed.response.structured ?? StructuredOutputCheck(schema: schema).check(routed.response.text).value
    }

    static func decode<T: StructuredOutput>(
        _ type: T.Type, _ parsed: JSONValue?, _ routed: RoutedResponse, feature: String
    ) throws(RouterError) -> RoutedValue<T> {
        do {
            guard let parsed else { throw DecodeProblem("the answer is not JSON") }
            return RoutedValue(content: try JSONValueDecoder().decode(T.self, from: parsed), routed: routed)
        } catch {
            throw .outputNotDecodable(feature: feature, problem: "\(T.self): \(error)", attempts: routed.attempts)
        }
    }
}

private struct DecodeProblem: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
