/// Passes a streamed body through, counting its bytes into the request log as they go.
final class CountingProducer: BodyProducer {
    private let inner: any BodyProducer
    private let log: RequestLog
    private let entry: Int

    init(_ inner: any BodyProducer, log: RequestLog, entry: Int) {
        self.inner = inner
        self.log = log
        self.entry = entry
    }

    func read(into buffer: UnsafeMutableRawBufferPointer) -> BodyRead {
        let result = inner.read(into: buffer)
        if case .bytes(let count) = result {
            log.addBodyBytes(count, to: entry)
        }
        return result
    }
}
