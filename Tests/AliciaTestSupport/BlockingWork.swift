import Dispatch

/// Runs blocking work (waiting for a process, a socket, pactl) on a Dispatch worker thread.
///
/// Swift concurrency has one thread per core, two on the CI machine: a test that blocks one of them
/// for seconds would stall every other test's `await`, and with them the timing a test measures.
public enum BlockingWork {
    public static func run<Value: Sendable>(_ body: @escaping @Sendable () throws -> Value) async throws -> Value {
        try await withCheckedThrowingContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(with: Result { try body() })
            }
        }
    }

    public static func run<Value: Sendable>(_ body: @escaping @Sendable () -> Value) async -> Value {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                continuation.resume(returning: body())
            }
        }
    }
}
