/// Makes the output stream for a format: PulseAudio in use, a recording fake in unit tests.
typealias SinkMaker = @Sendable (_ format: AudioFormat, _ mediaName: String) throws(PlaybackError) -> any AudioSink

/// Where a player's sound goes, as far as the core needs to know: how a stream is made, what the
/// server is called when it goes away, and how much audio the device side holds. The core knows no
/// sound server of its own; the PulseAudio value (`OutputDevice.pulse`) and the tests' recording
/// sink each say these for themselves.
package struct OutputDevice: Sendable {
    /// The server a player tries to reach, as a person would name it ("trying X again").
    var serverName: String
    /// Seconds of audio the sink holds between the feeder and the listener: the read-ahead counts
    /// them, so the ring fetches only the rest.
    var downstreamSeconds: Double
    var makeSink: SinkMaker
    /// Called before an item is opened while no stream exists: the device may start connecting, so
    /// that its handshake overlaps the item's first request.
    var prepare: @Sendable () -> Void
    /// A device of one format for its life (a file being rendered): given the first item's format,
    /// the one it takes; every item after is converted into it, none reopens it, and the player
    /// keeps every span of its frame map (`Player.timeline()`). Nil: a sound server's stream, which
    /// follows the items.
    package var fixedFormat: (@Sendable (AudioFormat) -> AudioFormat)?

    init(serverName: String, downstreamSeconds: Double, prepare: @escaping @Sendable () -> Void = {},
         makeSink: @escaping SinkMaker) {
        self.serverName = serverName
        self.downstreamSeconds = downstreamSeconds
        self.prepare = prepare
        self.makeSink = makeSink
    }
}
