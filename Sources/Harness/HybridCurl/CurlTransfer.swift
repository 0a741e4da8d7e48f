import CCurl
import Foundation
import HybridTransport
import Synchronization

/// One request in flight: the curl easy handle, the response head being parsed, and the body channel.
///
/// `@unchecked Sendable` because ownership moves between threads: the submitting task configures the handle,
/// then `CurlMultiLoop.submit` hands it over and from then on every mutable field is touched only by the loop
/// thread (libcurl runs the callbacks there, inside `curl_multi_perform`). The one exception, `cancelRequested`,
/// is an `Atomic`.
final class CurlTransfer: @unchecked Sendable {
    /// The URL without query, fragment or userinfo: the only form that may appear in errors.
    let url: String
    let timeouts: HTTPTimeouts
    let maxBodyBytes: Int?
    /// Set by any thread that wants the transfer gone; the loop removes it from the multi handle.
    let cancelRequested = Atomic<Bool>(false)

    private(set) var easy: UnsafeMutableRawPointer?
    private var headerList: UnsafeMutablePointer<curl_slist>?
    private let errorBuffer: UnsafeMutablePointer<CChar>
    private let isHead: Bool
    /// GET and HEAD may be re-sent by curl on a fresh connection; anything else is sent at most once.
    private let isIdempotent: Bool
    /// How many times curl started sending this request.
    private var sendCount = 0
    private weak var loop: CurlMultiLoop?

    /// Resumed exactly once: with the response head, or with the error that came first.
    private var head: CheckedContinuation<Result<HTTPResponse, TransportError>, Never>?
    private var channel: BodyChannel?
    /// Set by a callback just before it aborts curl, so the completion reports the real reason.
    private var failure: TransportError?

    private var status = 0
    private var headers = HTTPHeaders()
    private var headersComplete = false
    private var bodyBytes = 0
    /// Body bytes curl handed over during the current turn of the loop, yielded as one chunk when the turn ends:
    /// a chunked response read in one `recv` reaches the write callback once per HTTP chunk (six for a short SSE
    /// answer), and a `Data`, a lock and a consumer step per callback were most of streaming's extra CPU.
    private var pendingBody = Data()
    private var flushScheduled = false
    /// When curl had a connection and was about to send the request: the first-byte clock starts here.
    private(set) var requestSentAt: ContinuousClock.Instant?
    private(set) var firstByteArrived = false

    init(request: HTTPRequest, loop: CurlMultiLoop) throws(TransportError) {
        url = Self.redacted(request.url)
        timeouts = request.timeouts
        maxBodyBytes = request.maxBodyBytes
        let method = Self.uppercasedMethod(request.method)
        isHead = method == "HEAD"
        isIdempotent = isHead || method == "GET"
        self.loop = loop
        errorBuffer = .allocate(capacity: Int(CURL_ERROR_SIZE))
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE))

        guard Self.hasHTTPScheme(request.url) else {
            throw .invalidURL(url)
        }
        guard CurlGlobal.isInitialized, let easy = loop.easyHandles.take() else {
            throw .failed(url: url, detail: "libcurl could not be initialised")
        }
        self.easy = easy
        try configure(easy, request)
    }

    deinit {
        cleanup()
        errorBuffer.deallocate()
    }

    /// The last URL redacted, and its redaction: an eval sends thousands of requests to one URL, and redacting it
    /// (character by character) each time was a fiftieth of a fast eval's CPU.
    private static let lastRedaction = Mutex<(url: String, redacted: String)?>(nil)

    static func redacted(_ url: String) -> String {
        if let hit = lastRedaction.withLock({ $0.flatMap { $0.url == url ? $0.redacted : nil } }) { return hit }
        let redacted = URLRedaction.redact(url)
        lastRedaction.withLock { $0 = (url, redacted) }
        return redacted
    }

    private func configure(_ easy: UnsafeMutableRawPointer, _ request: HTTPRequest) throws(TransportError) {
        let me = Unmanaged.passUnretained(self).toOpaque()
        var ok = true
        func check(_ code: CURLcode) { if code != CURLE_OK { ok = false } }

        check(hy_easy_setopt_string(easy, CURLOPT_URL, request.url))
        check(hy_easy_setopt_pointer(easy, CURLOPT_ERRORBUFFER, errorBuffer))
        check(hy_easy_setopt_pointer(easy, CURLOPT_PRIVATE, me))
        // Transfers run on a non-main thread; signals would hit arbitrary threads.
        check(hy_easy_setopt_long(easy, CURLOPT_NOSIGNAL, 1))
        check(hy_easy_setopt_string(easy, CURLOPT_PROTOCOLS_STR, "http,https"))
        check(hy_easy_setopt_long(easy, CURLOPT_FOLLOWLOCATION, 0))
        check(hy_easy_setopt_long(easy, CURLOPT_SUPPRESS_CONNECT_HEADERS, 1))
        check(hy_easy_setopt_long(easy, CURLOPT_TCP_KEEPALIVE, 1))
        // nil means "no limit of ours"; curl's 0 means its built-in default (300 s) for connect, none for total.
        check(hy_easy_setopt_long(easy, CURLOPT_CONNECTTIMEOUT_MS, timeouts.connect.map { $0.roundedUpMilliseconds } ?? 0))
        check(hy_easy_setopt_long(easy, CURLOPT_TIMEOUT_MS, timeouts.total.map { $0.roundedUpMilliseconds } ?? 0))

        check(hy_easy_setopt_write_cb(easy, CURLOPT_WRITEFUNCTION) { data, size, count, userdata in
            guard let data, let userdata else { return 0 }
            let transfer = Unmanaged<CurlTransfer>.fromOpaque(userdata).takeUnretainedValue()
            return transfer.receiveBody(UnsafeRawBufferPointer(start: data, count: size * count))
        })
        check(hy_easy_setopt_pointer(easy, CURLOPT_WRITEDATA, me))
        check(hy_easy_setopt_write_cb(easy, CURLOPT_HEADERFUNCTION) { data, size, count, userdata in
            guard let data, let userdata else { return 0 }
            let transfer = Unmanaged<CurlTransfer>.fromOpaque(userdata).takeUnretainedValue()
            return transfer.receiveHeaderLine(UnsafeRawBufferPointer(start: data, count: size * count))
        })
        check(hy_easy_setopt_pointer(easy, CURLOPT_HEADERDATA, me))
        check(hy_easy_setopt_prereq_cb(easy) { userdata, _, _, _, _ in
            guard let userdata else { return 0 }
            return Unmanaged<CurlTransfer>.fromOpaque(userdata).takeUnretainedValue().aboutToSend()
        })
        check(hy_easy_setopt_pointer(easy, CURLOPT_PREREQDATA, me))

        let method = Self.uppercasedMethod(request.method)
        if let body = request.body {
            check(hy_easy_setopt_offt(easy, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.count)))
            body.withUnsafeBytes { bytes in
                // COPYPOSTFIELDS copies now, so `body` need not outlive this call; "" stands in for an empty buffer.
                if let base = bytes.baseAddress, !bytes.isEmpty {
                    check(hy_easy_setopt_pointer(easy, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: base)))
                } else {
                    check(hy_easy_setopt_string(easy, CURLOPT_COPYPOSTFIELDS, ""))
                }
            }
            if method != "POST" { check(hy_easy_setopt_string(easy, CURLOPT_CUSTOMREQUEST, method)) }
        } else {
            switch method {
            case "GET": check(hy_easy_setopt_long(easy, CURLOPT_HTTPGET, 1))
            case "HEAD": check(hy_easy_setopt_long(easy, CURLOPT_NOBODY, 1))
            case "POST":
                check(hy_easy_setopt_offt(easy, CURLOPT_POSTFIELDSIZE_LARGE, 0))
                check(hy_easy_setopt_string(easy, CURLOPT_COPYPOSTFIELDS, ""))
            default: check(hy_easy_setopt_string(easy, CURLOPT_CUSTOMREQUEST, method))
            }
        }

        var sawExpect = false
        for field in request.headers {
            // A line break would let a value smuggle extra header lines; values are secrets, so name only the field.
            if Self.hasLineBreak(field.name) || Self.hasLineBreak(field.value) || field.name.isEmpty {
                throw .failed(url: url, detail: "request header \"\(field.name.filter { !$0.isNewline })\" is malformed")
            }
            if Self.asciiCaseInsensitiveEqual(field.name, "expect") { sawExpect = true }
            // "Name:" would tell curl to drop the header; "Name;" sends it with an empty value.
            appendHeader(field.value.isEmpty ? "\(field.name);" : "\(field.name): \(field.value)")
        }
        // Skip the 100-continue round trip curl does for larger bodies.
        if !sawExpect { appendHeader("Expect:") }
        if headerList != nil { check(hy_easy_setopt_slist(easy, CURLOPT_HTTPHEADER, headerList)) }

        guard ok else { throw .failed(url: url, detail: "libcurl rejected the request options") }
    }

    // Byte-level forms of `uppercased()`, `lowercased().hasPrefix`, `contains(where: \.isNewline)` and
    // `caseInsensitiveCompare`: each request passes here, and the Unicode forms (grapheme breaking, case tables,
    // Foundation bridging) were a fortieth of a fast eval's CPU for strings that are ASCII in practice.

    /// `method` in upper case; unchanged (no copy) when it already is, as every caller's "POST" is.
    static func uppercasedMethod(_ method: String) -> String {
        method.utf8.allSatisfy { !(0x61...0x7A).contains($0) } ? method : method.uppercased()
    }

    /// Whether `url` starts with `http://` or `https://`, in any case.
    static func hasHTTPScheme(_ url: String) -> Bool {
        let scheme = url.utf8.prefix(8).map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }
        return scheme.starts(with: "http://".utf8) || scheme.starts(with: "https://".utf8)
    }

    /// Whether `text` holds a line break of any kind (`Character.isNewline`); ASCII text is checked byte by byte.
    static func hasLineBreak(_ text: String) -> Bool {
        var ascii = true
        for byte in text.utf8 {
            if byte >= 0x80 { ascii = false; break }
            if (0x0A...0x0D).contains(byte) { return true }
        }
        return ascii ? false : text.contains(where: \.isNewline)
    }

    /// Whether `text` equals `lowercaseASCII` ignoring ASCII case.
    static func asciiCaseInsensitiveEqual(_ text: String, _ lowercaseASCII: String) -> Bool {
        guard text.utf8.count == lowercaseASCII.utf8.count else { return false }
        return zip(text.utf8, lowercaseASCII.utf8).allSatisfy { byte, lower in
            ((0x41...0x5A).contains(byte) ? byte | 0x20 : byte) == lower
        }
    }

    private func appendHeader(_ line: String) {
        headerList = curl_slist_append(headerList, line)
    }

    /// Hands over the continuation `execute` waits on; called before the transfer reaches the loop.
    func setHeadContinuation(_ continuation: CheckedContinuation<Result<HTTPResponse, TransportError>, Never>) {
        head = continuation
    }

    // MARK: Callbacks (loop thread)

    /// curl has a connection and is about to send the request. Returns `CURL_PREREQFUNC_OK` (0) or `…_ABORT` (1).
    ///
    /// A second call means curl is re-sending on its own: the reused keep-alive connection died after the
    /// request went out and before any answer came. For a non-idempotent request (a generation is a billed
    /// POST) that re-send would be invisible to the caller, so it is refused and the transfer fails instead;
    /// the caller's retry policy decides, and counts it.
    private func aboutToSend() -> Int32 {
        sendCount += 1
        if sendCount > 1 && !isIdempotent {
            failure = .failed(
                url: url,
                detail: "the server closed a reused connection without answering; the request was not sent again")
            return 1
        }
        let now = ContinuousClock.now
        requestSentAt = now
        if let limit = timeouts.firstByte { loop?.firstByteClockStarted(deadline: now + limit) }
        return 0
    }

    /// The bytes without spaces and tabs at either end (HTTP's optional white space around a field value), as text.
    static func trimmedText(_ bytes: UnsafeRawBufferPointer.SubSequence) -> String {
        var bytes = bytes
        while let first = bytes.first, first == space || first == tab { bytes.removeFirst() }
        while let last = bytes.last, last == space || last == tab { bytes.removeLast() }
        return String(decoding: UnsafeRawBufferPointer(rebasing: bytes), as: UTF8.self)
    }

    /// The status code of a status line ("HTTP/1.1 200 OK"): the digits of its second word, 0 if it has none.
    static func statusCode(_ line: UnsafeRawBufferPointer.SubSequence) -> Int {
        guard let space = line.firstIndex(of: Self.space) else { return 0 }
        var code = 0
        var digits = 0
        for byte in line[(space + 1)...] {
            if byte == Self.space { break }
            guard (0x30...0x39).contains(byte), digits < 4 else { return 0 }
            code = code * 10 + Int(byte - 0x30)
            digits += 1
        }
        return digits > 0 ? code : 0
    }

    private static let space = UInt8(ascii: " ")
    private static let tab = UInt8(ascii: "\t")

    /// One line of the response head. Parsed as bytes: every response passes here a dozen times, and building a
    /// `String` per line to split it was a twentieth of a fast eval's CPU.
    private func receiveHeaderLine(_ bytes: UnsafeRawBufferPointer) -> Int {
        firstByteArrived = true
        if cancelRequested.load(ordering: .relaxed) { return 0 }
        // Trailers after a chunked body also arrive here; the head was already delivered.
        if headersComplete { return bytes.count }
        var line = bytes[...]
        while let last = line.last, last == UInt8(ascii: "\n") || last == UInt8(ascii: "\r") { line.removeLast() }

        if line.starts(with: "HTTP/".utf8) {
            // A new status line (after 100 Continue or any 1xx) starts a new head.
            status = Self.statusCode(line)
            headers = HTTPHeaders()
            return bytes.count
        }
        if line.isEmpty {
            if (100..<200).contains(status) { return bytes.count }
            headersComplete = true
            if !isHead, let limit = maxBodyBytes,
                let length = headers["Content-Length"].flatMap({ Int($0) }),
                length > limit
            {
                failure = .bodyTooLarge(url: url, limit: limit)
                return 0
            }
            deliverHead()
            return bytes.count
        }
        if line.first == Self.space || line.first == Self.tab, var last = headers.fields.last {
            // Obsolete line folding: continue the previous value.
            last.value += " " + Self.trimmedText(line)
            var fields = headers.fields.map { ($0.name, $0.value) }
            fields[fields.count - 1] = (last.name, last.value)
            headers = HTTPHeaders(fields)
            return bytes.count
        }
        if let colon = line.firstIndex(of: UInt8(ascii: ":")) {
            headers.add(name: Self.trimmedText(line[..<colon]), value: Self.trimmedText(line[(colon + 1)...]))
        }
        return bytes.count
    }

    private func receiveBody(_ bytes: UnsafeRawBufferPointer) -> Int {
        firstByteArrived = true
        if cancelRequested.load(ordering: .relaxed) { return 0 }
        bodyBytes += bytes.count
        if let limit = maxBodyBytes, bodyBytes > limit {
            failure = .bodyTooLarge(url: url, limit: limit)
            return 0
        }
        if !headersComplete {
            headersComplete = true
            deliverHead()
        }
        pendingBody.append(bytes.assumingMemoryBound(to: UInt8.self))
        if !flushScheduled {
            flushScheduled = true
            loop?.flushAfterTurn(self)
        }
        return bytes.count
    }

    /// Yields the body bytes received since the last flush as one chunk (loop thread, after each turn of curl).
    func flushBody() {
        flushScheduled = false
        guard !pendingBody.isEmpty else { return }
        let chunk = pendingBody
        pendingBody = Data()
        channel?.yield(chunk)
    }

    private func deliverHead() {
        guard let head else { return }
        self.head = nil
        let channel = BodyChannel(url: url) { [weak self, weak loop] in
            if let self, let loop { loop.cancel(self) }
        }
        self.channel = channel
        if status == 0, let easy {
            var code = 0
            _ = hy_easy_getinfo_long(easy, CURLINFO_RESPONSE_CODE, &code)
            status = code
        }
        head.resume(returning: .success(HTTPResponse(status: status, headers: headers, body: HTTPBody(channel: channel))))
    }

    // MARK: Completion (loop thread)

    /// curl finished the transfer with `code`.
    func complete(_ code: CURLcode) {
        flushBody()
        if code == CURLE_OK && failure == nil {
            deliverHead()
            channel?.finish(nil)
        } else {
            fail(failure ?? error(for: code))
        }
    }

    /// Ends the transfer with `error`: thrown from `execute` if the head is still pending, else from the body.
    func fail(_ error: TransportError) {
        // What arrived before the failure still reaches the consumer, ahead of the error.
        flushBody()
        if let head {
            self.head = nil
            head.resume(returning: .failure(error))
        }
        channel?.finish(error)
    }

    private func error(for code: CURLcode) -> TransportError {
        if cancelRequested.load(ordering: .relaxed) { return .cancelled(url: url) }
        let message = errorBuffer.pointee != 0 ? String(cString: errorBuffer) : String(cString: curl_easy_strerror(code))
        switch code {
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY, CURLE_COULDNT_CONNECT, CURLE_SSL_CONNECT_ERROR,
            CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CACERT_BADFILE:
            return .connectionFailed(url: url, detail: message)
        case CURLE_UNSUPPORTED_PROTOCOL, CURLE_URL_MALFORMAT:
            return .invalidURL(url)
        case CURLE_OPERATION_TIMEDOUT:
            // No request went out yet: the connection never came up, so it was the connect limit (if it is the
            // tighter one); otherwise the total limit ran out.
            if requestSentAt == nil, let connect = timeouts.connect, timeouts.total.map({ connect <= $0 }) ?? true {
                return .timedOut(url: url, phase: .connect, after: connect)
            }
            return .timedOut(url: url, phase: .total, after: timeouts.total ?? timeouts.connect ?? .zero)
        default:
            return .failed(url: url, detail: message)
        }
    }

    /// Frees the curl handle and header list. The loop calls it after removing the handle from the multi.
    func cleanup() {
        if let easy {
            if let loop { loop.easyHandles.recycle(easy) } else { curl_easy_cleanup(easy) }
            self.easy = nil
        }
        if let headerList {
            curl_slist_free_all(headerList)
            self.headerList = nil
        }
    }
}
