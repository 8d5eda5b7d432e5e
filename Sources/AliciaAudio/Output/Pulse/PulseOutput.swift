#if canImport(Glibc)
import Glibc
#endif

extension OutputDevice {
    /// PulseAudio, as `configuration` names the sink and the stream's role: the server `PULSE_SERVER`
    /// names (else the default one), and the stream's target buffer downstream.
    static func pulse(_ configuration: PlayerConfiguration) -> OutputDevice {
        return OutputDevice(serverName: pulseServerName,
                            downstreamSeconds: Double(PulseStream.targetLatencyMicroseconds) / 1_000_000,
                            prepare: { PulseContext.connectAhead() }) { format, name throws(PlaybackError) in
            try PulseStream(context: PulseContext.shared(), format: format, device: configuration.device,
                            mediaName: name, role: configuration.role)
        }
    }

    /// The server libpulse connects to, as a person would name it.
    private static var pulseServerName: String {
        if let server = getenv("PULSE_SERVER").map({ String(cString: $0) }), !server.isEmpty { return server }
        return "the default PulseAudio server"
    }
}
