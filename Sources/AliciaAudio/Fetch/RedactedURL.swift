/// Hides secrets in URLs before they are shown, logged or put in an error.
public enum RedactedURL {
    /// Query items whose values are secrets.
    static let secretKeys: Set<String> = ["token", "access_token", "api_key", "key", "auth"]

    /// `url` with every secret query value and any userinfo password replaced by `***`.
    public static func redact(_ url: String) -> String {
        var result = redactUserInfo(url)
        guard let question = result.firstIndex(of: "?") else { return result }
        let fragmentStart = result[question...].firstIndex(of: "#") ?? result.endIndex
        let query = result[result.index(after: question)..<fragmentStart]
        let items = query.split(separator: "&", omittingEmptySubsequences: false).map { item -> String in
            guard let equals = item.firstIndex(of: "=") else { return String(item) }
            let key = item[..<equals].lowercased()
            return secretKeys.contains(key) ? item[..<equals] + "=***" : String(item)
        }
        result.replaceSubrange(result.index(after: question)..<fragmentStart, with: items.joined(separator: "&"))
        return result
    }

    /// Replaces every occurrence of `secret` in `text` with `***`: the last
    /// line of defence for messages that quote a server or library verbatim.
    public static func scrub(_ text: String, secret: String?) -> String {
        guard let secret, !secret.isEmpty else { return text }
        return text.replacing(secret, with: "***")
    }

    /// `text` with every secret that `url` carries replaced by `***`.
    public static func scrub(_ text: String, secretsIn url: String) -> String {
        secrets(in: url).reduce(text) { scrub($0, secret: $1) }
    }

    /// The values of the secret query items of `url`.
    static func secrets(in url: String) -> [String] {
        guard let question = url.firstIndex(of: "?") else { return [] }
        let query = url[url.index(after: question)...].prefix { $0 != "#" }
        return query.split(separator: "&").compactMap { item in
            guard let equals = item.firstIndex(of: "=") else { return nil }
            let value = String(item[item.index(after: equals)...])
            return secretKeys.contains(item[..<equals].lowercased()) && !value.isEmpty ? value : nil
        }
    }

    private static func redactUserInfo(_ url: String) -> String {
        // The scheme ends at the first ":", as `MediaLocation` reads it. Not `firstRange(of: "://")`:
        // it lives in _StringProcessing, and this search, run for every item played, kept three
        // 64 KiB windows of that code resident.
        guard let schemeEnd = url.firstIndex(of: ":"), url[schemeEnd...].hasPrefix("://") else { return url }
        let authorityStart = url.index(schemeEnd, offsetBy: 3)
        let authorityEnd = url[authorityStart...].firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) ?? url.endIndex
        let authority = url[authorityStart..<authorityEnd]
        guard let at = authority.lastIndex(of: "@"), let colon = authority[..<at].firstIndex(of: ":") else {
            return url
        }
        var result = url
        result.replaceSubrange(authority.index(after: colon)..<at, with: "***")
        return result
    }
}
