internal import Glibc

/// A terminal call that failed: the call and its `errno`.
public struct TerminalError: Error, Hashable, CustomStringConvertible {
    /// The C call that failed, such as `tcgetattr`.
    public var operation: String
    /// Its `errno`: `ENOTTY` when the descriptor is not a terminal.
    public var code: Int32

    /// Whether the call failed because the descriptor is not a terminal.
    public var isNotATerminal: Bool { code == ENOTTY }

    public var description: String {
        "\(operation): \(String(cString: strerror(code))) (errno \(code))"
    }
}
