import Foundation

/// A fresh directory under the system temp directory, removed with everything in it by ``remove()``
/// or when the last reference goes away.
public final class TemporaryDirectory: Sendable {
    public let path: String

    /// Creates `<tmp>/alicia-<prefix>.XXXXXX` with mode 0755, so that a daemon running as another
    /// user (a desktop PulseAudio, nginx workers) can reach files inside it.
    public init(prefix: String) throws {
        let base = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array("\(base)/alicia-\(prefix).XXXXXX".utf8CString)
        let created = template.withUnsafeMutableBufferPointer { buffer in
            mkdtemp(buffer.baseAddress!)
        }
        guard created != nil else {
            throw HarnessError("mkdtemp in \(base) failed: \(String(cString: strerror(errno)))")
        }
        path = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        chmod(path, 0o755)
    }

    /// The path of `name` inside this directory.
    public func file(_ name: String) -> String {
        path + "/" + name
    }

    /// Writes `bytes` as `name` inside this directory (mode 0644) and returns the file's path.
    @discardableResult
    public func write(_ bytes: [UInt8], as name: String) throws -> String {
        let path = file(name)
        do {
            try Data(bytes).write(to: URL(fileURLWithPath: path))
        } catch {
            throw HarnessError("cannot write \(path): \(error)")
        }
        chmod(path, 0o644)
        return path
    }

    public func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }

    deinit {
        remove()
    }
}
