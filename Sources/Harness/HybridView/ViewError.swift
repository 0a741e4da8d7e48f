/// A request the viewer cannot answer, with the HTTP status and a message shown on the error page.
struct ViewError: Error, Sendable, CustomStringConvertible {
    /// The HTTP status code.
    var status: Int
    /// What went wrong and what to do, for the page.
    var message: String

    static func notFound(_ message: String) -> ViewError { ViewError(status: 404, message: message) }
    static func badRequest(_ message: String) -> ViewError { ViewError(status: 400, message: message) }

    var description: String { message }
}
