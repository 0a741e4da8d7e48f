/// Strips the parts of a URL that may carry secrets, for errors and logs.
///
/// Gemini-style APIs put keys in the query string (`?key=…`) and URLs may embed `user:password@`, so every
/// URL that leaves the transport in an error goes through `redact(_:)`: only `scheme://host:port/path` remains.
package enum URLRedaction {
    /// `scheme://host:port/path` of `url`, without userinfo, query or fragment.
    package static func redact(_ url: String) -> String {
        let cutAtQuery = url.prefix { $0 != "?" && $0 != "#" }
        guard let schemeEnd = cutAtQuery.range(of: "://") else {
            return String(cutAtQuery)
        }
        let scheme = cutAtQuery[..<schemeEnd.lowerBound]
        let rest = cutAtQuery[schemeEnd.upperBound...]
        let authorityEnd = rest.firstIndex(of: "/") ?? rest.endIndex
        var authority = rest[..<authorityEnd]
        if let at = authority.lastIndex(of: "@") {
            authority = authority[authority.index(after: at)...]
        }
        return "\(scheme)://\(authority)\(rest[authorityEnd...])"
    }
}
