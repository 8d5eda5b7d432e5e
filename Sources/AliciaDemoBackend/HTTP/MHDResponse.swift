internal import CMicroHTTPD

/// One libmicrohttpd response, built from an ``HTTPReply/Body``.
///
/// Owns one reference to the `MHD_Response`; `MHD_queue_response` takes another, so the response
/// lives until the connection has sent it even though this owner goes away at once. A streamed
/// body's producer is retained in the content reader's closure and released by libmicrohttpd's free
/// callback, which runs when the last reference to the response is dropped.
final class MHDResponse {
    private let handle: OpaquePointer

    /// How much a content reader is asked for per call: 64 KiB is what one socket write takes well.
    private static let readerBlockSize = 64 * 1024

    /// Nil when libmicrohttpd cannot allocate the response.
    ///
    /// Wraps `MHD_create_response_from_buffer` and `MHD_create_response_from_callback`.
    init?(_ body: HTTPReply.Body) {
        switch body {
        case .bytes(let bytes):
            let created = bytes.withUnsafeBytes { buffer in
                // MUST_COPY: libmicrohttpd keeps its own copy; `bytes` may go away at once.
                alicia_mhd_create_response_from_buffer(buffer.count, UnsafeMutableRawPointer(mutating: buffer.baseAddress), .RESPMEM_MUST_COPY)
            }
            guard let created else { return nil }
            handle = created
        case .stream(let length, let producer):
            let box = Unmanaged.passRetained(ProducerBox(producer))
            let created = alicia_mhd_create_response_from_callback(
                length.map { UInt64($0) } ?? alicia_mhd_size_unknown(),
                Self.readerBlockSize,
                { context, _, buffer, capacity in
                    guard let context, let buffer else { return alicia_mhd_reader_end_with_error() }
                    let producer = Unmanaged<ProducerBox>.fromOpaque(context).takeUnretainedValue().producer
                    switch producer.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: capacity)) {
                    case .bytes(let count): return count
                    case .end: return alicia_mhd_reader_end_of_stream()
                    case .abort: return alicia_mhd_reader_end_with_error()
                    }
                },
                box.toOpaque(),
                { context in
                    guard let context else { return }
                    Unmanaged<ProducerBox>.fromOpaque(context).release()
                }
            )
            guard let created else {
                box.release()
                return nil
            }
            handle = created
        }
    }

    /// False if libmicrohttpd rejects the header (bad characters, out of memory).
    ///
    /// Wraps `MHD_add_response_header`.
    func addHeader(_ name: String, _ value: String) -> Bool {
        alicia_mhd_add_response_header(handle, name, value) == .YES
    }

    /// Queues the response as the answer to the connection's current request.
    ///
    /// Wraps `MHD_queue_response`.
    func queue(on connection: OpaquePointer, status: Int) -> Bool {
        alicia_mhd_queue_response(connection, UInt32(status), handle) == .YES
    }

    /// Wraps `MHD_destroy_response`.
    deinit {
        alicia_mhd_destroy_response(handle)
    }
}

/// A producer in a class of its own, so that its reference can travel through a `void *`.
private final class ProducerBox {
    let producer: any BodyProducer

    init(_ producer: any BodyProducer) {
        self.producer = producer
    }
}
