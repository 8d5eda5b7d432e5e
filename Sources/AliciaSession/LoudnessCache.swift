#if canImport(Glibc)
import Glibc
#endif
import AliciaAudio
import AliciaJSON
import AliciaLocks

/// Measured loudness per episode (`loudness.json` beside the positions, keyed as they are), so that
/// an episode's second play starts at the right level at once. `{"version": 1, "items": {KEY:
/// {"integrated": -19.3, "peak": -2.1}}}`. Written whole (temporary file, rename) when a
/// measurement is added; two instances can at worst lose each other's newest figure, which only
/// costs measuring it again, so it takes no lock. A file that does not parse is started afresh.
public final class LoudnessCache {
    public let path: String
    private let directory: String
    private var figures: [String: LoudnessFigures]

    public init(directory: String) {
        self.directory = directory
        path = directory + "/loudness.json"
        figures = Self.read(path) ?? [:]
    }

    public func figures(for key: String) -> LoudnessFigures? { figures[key] }

    /// Keeps `measured` for `key` and writes the file; false when it cannot be written.
    @discardableResult
    public func store(_ measured: LoudnessFigures, for key: String) -> Bool {
        guard measured.integrated.isFinite else { return false }
        figures = (Self.read(path) ?? figures).merging([key: measured]) { _, new in new }
        return write()
    }

    static func decode(_ bytes: [UInt8]) -> [String: LoudnessFigures]? {
        guard case .object(let root)? = JSONValue(parsing: bytes),
              case .object(let entries)? = root.first(where: { $0.key == "items" })?.value else { return nil }
        var figures: [String: LoudnessFigures] = [:]
        for entry in entries {
            guard case .object(let fields) = entry.value,
                  case .number(let integrated)? = fields.first(where: { $0.key == "integrated" })?.value else { continue }
            var peak = -Double.infinity
            if case .number(let value)? = fields.first(where: { $0.key == "peak" })?.value { peak = value }
            figures[entry.key] = LoudnessFigures(integrated: integrated, peak: peak)
        }
        return figures
    }

    static func encode(_ figures: [String: LoudnessFigures]) -> [UInt8]? {
        var entries: [JSONValue.Member] = []
        for (key, measured) in figures {
            // Hundredths of a decibel are more than any meter's accuracy.
            var fields: [JSONValue.Member] = [.init("integrated", .number((measured.integrated * 100).rounded() / 100))]
            if measured.peak.isFinite { fields.append(.init("peak", .number((measured.peak * 100).rounded() / 100))) }
            entries.append(.init(key, .object(fields)))
        }
        return JSONValue.object([.init("items", .object(entries)), .init("version", .number(1))]).text(layout: .indented)
    }

    private static func read(_ path: String) -> [String: LoudnessFigures]? {
        guard case .success(let bytes) = AtomicFile.read(path) else { return nil }
        return decode(bytes)
    }

    private func write() -> Bool {
        guard let bytes = Self.encode(figures) else { return false }
        mkdir(directory, 0o700)
        guard case .success = AtomicFile.write(bytes, to: path) else { return false }
        return true
    }
}
