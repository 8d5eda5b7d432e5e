import AliciaAudio
import AliciaJSON

/// `status`: the state, where, how long and what, in one object (the socket's reply) and in one
/// line (`ctl status`, a script's `status`): `playing 83.42 3600.00 Title`.
package enum SessionStatus {
    package static func json(_ reading: PropertyReading) -> JSONValue {
        let snapshot = reading.snapshot
        return .object([
            .init("state", .string(snapshot.state.rawValue)),
            .init("position", reading.position.map { .number(SessionProperties.rounded($0)) } ?? .null),
            .init("duration", reading.hasItem ? snapshot.duration.map { .number(SessionProperties.rounded($0)) } ?? .null : .null),
            .init("title", .string(reading.details?.title)),
            .init("label", .string(snapshot.item?.label)),
            .init("playlist-pos", .number(Double(snapshot.queueIndex ?? -1))),
            .init("playlist-count", .number(Double(reading.queue.count))),
            .init("speed", .number(snapshot.speed)),
            .init("volume", .number(SessionProperties.rounded(reading.levels.volumePercent, places: 2))),
            .init("mute", .bool(reading.levels.muted)),
            .init("voice", .string(reading.voice)),
        ])
    }

    /// `state position duration title`: seconds with two decimals, `-` for what is not known.
    package static func line(_ data: JSONValue) -> String {
        func field(_ name: String) -> JSONValue? { data[name].flatMap { $0 == .null ? nil : $0 } }
        let state = field("state")?.stringValue ?? "-"
        let position = field("position")?.numberValue.map(TimeSpec.seconds) ?? "-"
        let duration = field("duration")?.numberValue.map(TimeSpec.seconds) ?? "-"
        let title = field("title")?.stringValue ?? "-"
        return "\(state) \(position) \(duration) \(title)"
    }
}
