import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Turns an `HTTPRequest` into a `URLRequest`, refusing what `CurlTransport` refuses too.
enum URLRequestBuilder {
    static func build(_ request: HTTPRequest) throws(TransportError) -> URLRequest {
        let redacted = URLRedaction.redact(request.url)
        let lowered = request.url.lowercased()
        guard lowered.hasPrefix("http://") || lowered.hasPrefix("https://"), let url = URL(string: request.url),
            url.host != nil
        else {
            throw .invalidURL(redacted)
        }
        var urlRequest = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData)
        urlRequest.httpMethod = request.method.uppercased()
        urlRequest.timeoutInterval = URLSessionTransport.sessionIdleLimit
        for field in request.headers {
            // A line break would let a value smuggle extra header lines; values are secrets, so name only the field.
            guard !field.name.contains(where: \.isNewline), !field.value.contains(where: \.isNewline) else {
                throw .failed(url: redacted, detail: "request header \"\(field.name.filter { !$0.isNewline })\" is malformed")
            }
            urlRequest.addValue(field.value, forHTTPHeaderField: field.name)
        }
        if let body = request.body {
            urlRequest.httpBody = body
        } else if urlRequest.httpMethod == "POST" {
            urlRequest.httpBody = Data()
        }
        return urlRequest
    }
}
