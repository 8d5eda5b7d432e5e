/// Hides the secrets a URL carries before it is shown, logged or put in an error: the one rule, for
/// the engine (`RedactedURL`) and the backend client (`BackendConfiguration.redacted(_:)`) alike.
///
/// A secret is the value of a `token` (or `access_token`, `api_key`, `key`, `auth`) item wherever
/// an item can start: in the query, in the fragment (`#token=…`), in a URL nested percent-encoded
/// inside another one's query (`?next=http%3A%2F%2Fh%2Fa%3Ftoken%3D…`), the key spelt in any case
/// or percent-encoded (`%74oken=`), on any host. The userinfo's password is one too. A byte scan:
/// it runs for every item played, and the string searching of _StringProcessing would keep code
/// resident that nothing else needs (DECISIONS.md, "Errors").
package enum URLRedaction {
    /// Names whose values are secrets, lower case.
    package static let secretKeys: Set<String> = ["token", "access_token", "api_key", "key", "auth"]
    /// The longest of them: a key past this length is not one.
    private static let longestKey = 12

    /// `url` with every secret value and any userinfo password replaced by `***`.
    package static func redact(_ url: String) -> String {
        var output: [UInt8] = []
        let bytes = Array(redactUserInfo(url).utf8)
        output.reserveCapacity(bytes.count)
        scan(bytes) { piece in
            switch piece {
            case .plain(let range): output += bytes[range]
            case .secret: output += Array("***".utf8)
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// The secret values `url` carries, as written and percent-decoded (both can turn up in a
    /// library's message), longest first so that a shorter one inside it cannot break it up.
    package static func secrets(in url: String) -> [String] {
        let bytes = Array(url.utf8)
        var found: Set<String> = []
        scan(bytes) { piece in
            guard case .secret(let range) = piece, !range.isEmpty else { return }
            let raw = String(decoding: bytes[range], as: UTF8.self)
            found.insert(raw)
            let decoded = PercentDecoding.decoded(bytes[range])
            if !decoded.isEmpty { found.insert(decoded) }
        }
        return found.sorted { $0.utf8.count > $1.utf8.count }
    }

    /// `text` with every occurrence of `secret` replaced by `***`: the last line of defence for
    /// messages that quote a server or a library verbatim.
    package static func scrub(_ text: String, secret: String?) -> String {
        guard let secret, !secret.isEmpty else { return text }
        return text.replacing(secret, with: "***")
    }

    /// `text` with every secret that `url` carries replaced by `***`.
    package static func scrub(_ text: String, secretsIn url: String) -> String {
        secrets(in: url).reduce(text) { scrub($0, secret: $1) }
    }

    private enum Piece {
        /// Bytes shown as they are.
        case plain(Range<Int>)
        /// A secret value, shown as `***`.
        case secret(Range<Int>)
    }

    /// Walks `bytes`, handing on plain stretches and secret values in order.
    private static func scan(_ bytes: [UInt8], _ emit: (Piece) -> Void) {
        var index = 0
        var plainStart = 0
        // An item can start here: at the beginning, or after a separator (literal or encoded).
        var atItemStart = true
        while index < bytes.count {
            if atItemStart, let key = secretKey(in: bytes, at: index) {
                let end = valueEnd(in: bytes, from: key.valueStart, nested: key.nested)
                emit(.plain(plainStart..<key.valueStart))
                emit(.secret(key.valueStart..<end))
                index = end
                plainStart = end
                atItemStart = false
                continue
            }
            if isSeparator(bytes[index]) {
                index += 1
                atItemStart = true
            } else if let decoded = PercentDecoding.byte(in: bytes, at: index), isSeparator(decoded) {
                index += 3
                atItemStart = true
            } else {
                index += 1
                atItemStart = false
            }
        }
        emit(.plain(plainStart..<bytes.count))
    }

    /// A secret key starting at `index` (its letters literal or percent-encoded) and where its value
    /// starts; `nested` when its `=` is itself encoded (`%3D`: an item of a URL inside a value).
    private static func secretKey(in bytes: [UInt8], at index: Int) -> (valueStart: Int, nested: Bool)? {
        var key: [UInt8] = []
        var position = index
        while position < bytes.count, key.count <= longestKey {
            let byte = bytes[position]
            if byte == UInt8(ascii: "=") {
                return isSecret(key) ? (position + 1, false) : nil
            }
            if let decoded = PercentDecoding.byte(in: bytes, at: position) {
                if decoded == UInt8(ascii: "=") { return isSecret(key) ? (position + 3, true) : nil }
                key.append(lowercased(decoded))
                position += 3
                continue
            }
            guard !isSeparator(byte), !isTerminator(byte) else { return nil }
            key.append(lowercased(byte))
            position += 1
        }
        return nil
    }

    /// Where a value that starts at `start` ends: at a separator, or the end of the text; a nested
    /// value also at an encoded separator (`%26`, `%23`, `%3B`).
    private static func valueEnd(in bytes: [UInt8], from start: Int, nested: Bool) -> Int {
        var position = start
        while position < bytes.count {
            let byte = bytes[position]
            if isTerminator(byte) || (isSeparator(byte) && byte != UInt8(ascii: "?")) { return position }
            if nested, let decoded = PercentDecoding.byte(in: bytes, at: position), isSeparator(decoded), decoded != UInt8(ascii: "?") {
                return position
            }
            position += 1
        }
        return position
    }

    private static func isSecret(_ key: [UInt8]) -> Bool {
        !key.isEmpty && secretKeys.contains(String(decoding: key, as: UTF8.self))
    }

    /// Bytes after which a query or fragment item starts.
    private static func isSeparator(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "?") || byte == UInt8(ascii: "&") || byte == UInt8(ascii: "#") || byte == UInt8(ascii: ";")
    }

    /// Bytes that end a URL quoted in a message (a value never holds them unencoded).
    private static func isTerminator(_ byte: UInt8) -> Bool {
        byte <= 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") || byte == UInt8(ascii: "<")
            || byte == UInt8(ascii: ">") || byte == 0x7F
    }

    private static func lowercased(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 : byte
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
