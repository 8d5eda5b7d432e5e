internal import Glibc

/// Standard input as a front end's turn reads it: what is there now, never waiting for more (the
/// host's poll said it was readable, or a pending ESC's wait is over).
package enum StandardInput {
    /// Hands each chunk that is there now to `take`; false when the input has ended.
    package static func readAvailable(_ take: (ArraySlice<UInt8>) -> Void) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 1024)
        while true {
            var fds = pollfd(fd: 0, events: Int16(POLLIN), revents: 0)
            guard poll(&fds, 1, 0) > 0 else { return true }
            let n = read(0, &buffer, buffer.count)
            // 0 is the end; a failed read (EINTR, EAGAIN) leaves it for the next turn.
            guard n > 0 else { return n != 0 }
            take(buffer[0..<n])
        }
    }
}
