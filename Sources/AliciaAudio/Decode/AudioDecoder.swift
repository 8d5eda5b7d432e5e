/// Turns bytes into interleaved PCM frames in `format`. Lives on one thread
/// (a player's feeder). The seam between decoding and output.
protocol AudioDecoder: AnyObject {
    var format: AudioFormat { get }
    /// Decodes up to `frames` frames into `buffer` (room for `frames × bytesPerFrame`
    /// bytes); returns how many. Fewer than asked means the end, or an interrupted
    /// or failed read (see `interrupted`).
    func read(into buffer: UnsafeMutableRawPointer, frames: Int) -> Int
    /// Moves to `frame`; false if the decoder cannot.
    func seek(toFrame frame: Int64) -> Bool
    /// A read was cut short by `ByteSource.interruptReader`: the decoder's state is
    /// unknown and it must be reopened before use.
    var interrupted: Bool { get }
    /// The header promises more audio than the file holds.
    var isTruncated: Bool { get }
}
