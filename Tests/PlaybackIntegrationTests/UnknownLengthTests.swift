import AliciaTestSupport
import Foundation
import Testing

/// A WAV of unknown length, as TTS servers and ffmpeg write it on a pipe: served with chunked
/// transfer and no Content-Length (no Range either), its RIFF and data sizes 0xFFFFFFFF. It plays
/// as it arrives, bit-exact, to its end, without an error.
@Suite("Streams of unknown length")
struct UnknownLengthTests {
    /// A one-connection-at-a-time HTTP/1.1 server in Python: every GET answers 200 with the file in
    /// chunks of 16 KiB, a few milliseconds apart, then the last chunk.
    static let server = #"""
    import socket, sys, time
    path, port_file = sys.argv[1], sys.argv[2]
    data = open(path, "rb").read()
    s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    s.bind(("127.0.0.1", 0)); s.listen(8)
    open(port_file, "w").write(str(s.getsockname()[1]))
    while True:
        c, _ = s.accept()
        request = b""
        while b"\r\n\r\n" not in request:
            more = c.recv(4096)
            if not more: break
            request += more
        try:
            c.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: audio/wav\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n")
            for at in range(0, len(data), 16384):
                piece = data[at:at + 16384]
                c.sendall(b"%x\r\n" % len(piece) + piece + b"\r\n")
                time.sleep(0.01)
            c.sendall(b"0\r\n\r\n")
        except OSError:
            pass
        c.close()
    """#

    @Test("a chunked WAV with no Content-Length and 0xFFFFFFFF sizes plays bit-exact to its end")
    func chunkedUnknownLength() async throws {
        try ControlSocketTests.requireTools(["python3"])
        let directory = try TemporaryDirectory(prefix: "unknown-length")
        let fixture = WAVFixture(seconds: 3, sampleRate: 48_000, channels: 2, seed: 77)
        var bytes = fixture.bytes
        // RIFF size and data size: unknown (what a writer on a pipe cannot go back to fill in).
        for offset in [4, 40] { for i in 0..<4 { bytes[offset + i] = 0xFF } }
        let wav = try directory.write(bytes, as: "stream.wav")
        let script = try directory.write(Array(Self.server.utf8), as: "server.py")
        let portFile = directory.file("port")
        let server = try ChildProcess("python3", [script, wav, portFile])
        defer { server.send(SIGKILL) }
        let listening = try #require(try await LoopbackPort.written(to: portFile, by: server), "the server did not start")
        let capture = try await PipeSinkCapture(format: .s16le, rate: 48_000, channels: 2)
        let result = try await Playback.run(["play", "http://127.0.0.1:\(listening)/stream.wav", "--device", capture.sinkName],
                                            environment: [:])
        let captured = await capture.finishInt16()
        #expect(result.status == 0 && !result.stderr.contains("truncated"), "\(result)")
        let played = ReadAloudTests.trimmed(captured)
        let expected = ReadAloudTests.trimmed(fixture.samples16)
        #expect(played.count == expected.count, "\(played.count) samples played, \(expected.count) sent")
        #expect(AudioCompare.firstMismatch(expected: expected, actual: played) == nil,
                "not the stream bit-exact: \(AudioCompare.describeDifference(expected: expected, actual: played, channels: 2)) \(result.stderr)")
    }
}
