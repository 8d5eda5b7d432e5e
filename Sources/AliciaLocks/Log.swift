#if canImport(Glibc)
import Glibc
#endif

/// The engine's one logger. Silent unless `ALICIA_LOG` is set (`debug` or
/// `info`); lines go to stderr, or to the file named by `ALICIA_LOG_FILE`.
/// Never pass a URL that still holds a token: log `RedactedURL` text only.
public enum Log {
    public enum Category: String, Sendable {
        case fetch, decode, output, engine, cli, reports
    }

    public enum Level: Int, Sendable, Comparable {
        case debug = 0, info = 1, warning = 2
        public static func < (a: Level, b: Level) -> Bool { a.rawValue < b.rawValue }
    }

    private static let threshold: Level? = {
        guard let value = getenv("ALICIA_LOG").map({ String(cString: $0) }) else { return nil }
        switch value {
        case "debug": return .debug
        case "info", "1": return .info
        case "warning": return .warning
        default: return nil
        }
    }()

    private static let start = MonotonicClock.nanoseconds()

    private static let sink: Int32 = {
        if let path = getenv("ALICIA_LOG_FILE") {
            let fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
            if fd >= 0 { return fd }
        }
        return 2
    }()

    public static func debug(_ category: Category, _ message: @autoclosure () -> String) {
        write(.debug, category, message)
    }

    public static func info(_ category: Category, _ message: @autoclosure () -> String) {
        write(.info, category, message)
    }

    public static func warning(_ category: Category, _ message: @autoclosure () -> String) {
        write(.warning, category, message)
    }

    private static func write(_ level: Level, _ category: Category, _ message: () -> String) {
        guard let threshold, level >= threshold else { return }
        // Milliseconds since the first line, to a tenth: enough to see where time goes in a seek.
        let tenths = (MonotonicClock.nanoseconds() - start) / 100_000
        var line = "\(tenths / 10).\(tenths % 10) [\(category.rawValue)] \(message())\n"
        // One write(2) per line: lines from different threads do not interleave.
        line.withUTF8 { _ = Glibc.write(sink, $0.baseAddress, $0.count) }
    }
}
