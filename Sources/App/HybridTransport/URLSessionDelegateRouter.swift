import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Synchronization

/// The session delegate of `URLSessionTransport`: forwards each task's events to its `URLSessionTransfer`.
///
/// One session-wide delegate with a table of transfers: the delegate style every URLSession implementation supports
/// (per-task delegates, `URLSessionTask.delegate`, are newer on Darwin), so Linux and Apple platforms run the same code.
final class URLSessionDelegateRouter: NSObject, URLSessionDataDelegate, Sendable {
    private let transfers = Mutex<[Int: URLSessionTransfer]>([:])

    /// Must happen before the task is resumed, so no event finds the table without it.
    func register(_ transfer: URLSessionTransfer, for task: URLSessionTask) {
        transfers.withLock { $0[task.taskIdentifier] = transfer }
    }

    /// For a task that was never resumed (its request was cancelled before it started).
    func unregister(_ task: URLSessionTask) {
        _ = transfers.withLock { $0.removeValue(forKey: task.taskIdentifier) }
    }

    private func transfer(for task: URLSessionTask) -> URLSessionTransfer? {
        transfers.withLock { $0[task.taskIdentifier] }
    }

    #if canImport(FoundationNetworking)
    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        let allow = transfer(for: dataTask)?.didReceive(response) ?? false
        completionHandler(allow ? .allow : .cancel)
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
    ) {
        // Redirects are the caller's business, as with CurlTransport: the 3xx comes back as the response.
        completionHandler(nil)
    }
    #else
    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        let allow = transfer(for: dataTask)?.didReceive(response) ?? false
        completionHandler(allow ? .allow : .cancel)
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        // Redirects are the caller's business, as with CurlTransport: the 3xx comes back as the response.
        completionHandler(nil)
    }
    #endif

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        transfer(for: dataTask)?.didReceive(data)
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, didSendBodyData bytesSent: Int64, totalBytesSent: Int64,
        totalBytesExpectedToSend: Int64
    ) {
        transfer(for: task)?.didSendBody()
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let transfer = transfers.withLock { $0.removeValue(forKey: task.taskIdentifier) }
        transfer?.didComplete(error)
    }
}
