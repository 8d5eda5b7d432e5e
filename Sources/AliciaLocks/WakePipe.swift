#if canImport(Glibc)
import Glibc
#endif

/// A pipe that makes a `poll` loop's descriptor readable from any thread: the one way a loop here
/// is woken (a player's subscription, the control server's inbox, the signal watcher). Both ends
/// are non-blocking and close on exec; a wake never blocks, however many come before a drain.
package final class WakePipe: Sendable {
    /// The read end, for `poll`.
    package let readDescriptor: Int32
    private let writeDescriptor: Int32

    package init() {
        var ends: [Int32] = [-1, -1]
        if pipe(&ends) == 0 {
            for fd in ends {
                _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
                _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            }
        } else {
            ends = [-1, -1]
        }
        readDescriptor = ends[0]
        writeDescriptor = ends[1]
    }

    deinit {
        if readDescriptor >= 0 { close(readDescriptor) }
        if writeDescriptor >= 0 { close(writeDescriptor) }
    }

    /// Makes the read end readable. True when the byte went in (false: the pipe is full, so it is
    /// readable already).
    @discardableResult
    package func wake() -> Bool {
        var byte: UInt8 = 1
        return write(writeDescriptor, &byte, 1) == 1
    }

    /// Takes one wake (the read end is readable no more unless others wait).
    package func takeOne() {
        var byte: UInt8 = 0
        _ = read(readDescriptor, &byte, 1)
    }

    /// Takes every wake waiting.
    package func drain() {
        var buffer = [UInt8](repeating: 0, count: 64)
        while read(readDescriptor, &buffer, buffer.count) > 0 {}
    }
}
