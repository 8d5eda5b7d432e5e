/// Why a ``DemoBackend`` could not start: bad settings, or the port could not be bound.
public struct DemoBackendError: Error, Sendable, CustomStringConvertible {
    public let message: String

    public init(_ message: String) {
        self.message = message
    }

    public var description: String { message }
}
