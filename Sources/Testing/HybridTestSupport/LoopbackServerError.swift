/// Why the loopback server could not start.
package enum LoopbackServerError: Error, Sendable, CustomStringConvertible {
    /// A socket call failed; `call` names it, `errno` is the system error number.
    case socket(call: String, errno: Int32)

    /// A one-line message naming the failed call.
    package var description: String {
        switch self {
        case .socket(let call, let errno): "loopback server: \(call) failed with errno \(errno)"
        }
    }
}
