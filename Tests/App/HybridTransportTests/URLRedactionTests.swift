import Foundation  // Needed: without it the Swift 6.3 @Test macro expansion below fails with "@const value" errors.
@testable import HybridCore
@testable import HybridTransport
@testable import HybridValidation
import Testing

@Suite("URL redaction")
struct URLRedactionTests {
    @Test(
        "keeps scheme, host, port and path; drops query, fragment and userinfo",
        arguments: [
            ("https://api.example.com/v1beta/models/x:generate?key=SECRET&alt=sse", "https://api.example.com/v1beta/models/x:generate"),
            ("http://user:pass@127.0.0.1:8080/path#frag", "http://127.0.0.1:8080/path"),
            ("https://host?key=SECRET", "https://host"),
            ("http://127.0.0.1:9/", "http://127.0.0.1:9/"),
        ]
    )
    func redacts(input: String, expected: String) {
        #expect(URLRedaction.redact(input) == expected)
    }
}
