#if canImport(Glibc)
import Glibc
#endif
/// `alicia-player config set KEY VALUE`: one key changed in the file's text, everything else
/// (comments, order, other keys, unknown ones) kept as it was.
extension ConfigFile {
    public struct EditError: Error, Equatable, Sendable {
        public let message: String
    }

    /// The key as the file spells it (`base-url` → `base_url`), if it is one alicia-player reads.
    public static func knownKey(_ key: String) -> String? {
        let normalised = key.lowercased().replacingOccurrences(of: "-", with: "_")
        return keys.contains(normalised) ? normalised : nil
    }

    /// `text` with `key = value`: the key's first line rewritten and any later ones (which would
    /// win) removed, or the line appended when the key is not there.
    public static func setting(_ key: String, to value: String, in text: String) throws(EditError) -> String {
        guard let key = knownKey(key) else { throw EditError(message: unknownKeyMessage(key.lowercased())) }
        guard !value.isEmpty else { throw EditError(message: "\(key) needs a value") }
        guard !value.contains(where: \.isNewline) else { throw EditError(message: "a value is one line") }
        if key == "auto_download", Int(value).map({ (0...100).contains($0) }) != true {
            throw EditError(message: "auto_download '\(value)' is not a number of queue items from 0 to 100 (0 is none)")
        }
        if key == "accessible", !["true", "false", "yes", "no", "1", "0"].contains(value.lowercased()) {
            throw EditError(message: "accessible '\(value)' is not true or false")
        }
        if key == "report", !["on", "off", "true", "false", "yes", "no", "1", "0"].contains(value.lowercased()) {
            throw EditError(message: "report '\(value)' is not on or off")
        }
        if key == "keep", Int(value).map({ (1...100).contains($0) }) != true {
            throw EditError(message: "keep '\(value)' is not a count of downloads a show from 1 to 100")
        }
        if key == "delete_played_after", Int(value.hasSuffix("d") ? String(value.dropLast()) : value).map({ (0...3650).contains($0) }) != true {
            throw EditError(message: "delete_played_after '\(value)' is not a number of days from 0 to 3650 (7, or 7d)")
        }
        if key == "ca_file", access(value, R_OK) != 0 {
            throw EditError(message: "ca_file '\(value)' is not a readable file (a PEM bundle of CA certificates)")
        }
        if key == "base_url" {
            do {
                _ = try BackendConfiguration(baseURL: value, token: nil)
            } catch {
                throw EditError(message: error.message)
            }
        }
        let entries: [Entry]
        do {
            entries = try self.entries(text)
        } catch {
            throw EditError(message: error.message)
        }
        // Spaces at either end, or a quote at the start, would be lost or changed when read.
        let needsQuotes = value.first?.isWhitespace == true || value.last?.isWhitespace == true
            || value.first == "\"" || value.first == "'"
        let written = "\(key) = " + (needsQuotes ? (value.contains("\"") ? "'\(value)'" : "\"\(value)\"") : value)
        let matching = entries.filter { $0.key == key }.map(\.line)
        var lines = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).map(String.init)
        if lines.last == "" { lines.removeLast() }
        if let first = matching.first {
            lines[first - 1] = written
            for line in matching.dropFirst().reversed() { lines.remove(at: line - 1) }
        } else {
            lines.append(written)
        }
        return lines.map { $0 + "\n" }.joined()
    }
}
