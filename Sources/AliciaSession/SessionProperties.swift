#if canImport(Glibc)
import Glibc
#endif
import AliciaAudio
import AliciaJSON

/// Why a property could not be read or written (the socket turns these into mpv's error strings).
package enum PropertyFailure: Error, Sendable, Equatable {
    case notFound
    /// It exists but has no value now (no item loaded, a length not known yet).
    case unavailable
    /// The value given is not what it takes (what it takes, in words).
    case format(String)
    case readOnly
}

/// One property: how it reads, and (when it can be set) which command a value makes.
package struct SessionProperty: Sendable {
    package let name: String
    /// Changes with every frame: observers hear of it at most once a second.
    package let isContinuous: Bool
    let read: @Sendable (PropertyReading) -> JSONValue?
    let write: (@Sendable (JSONValue, PropertyReading) -> Result<TransportCommand, PropertyFailure>)?
    let cycle: (@Sendable (PropertyReading) -> TransportCommand)?

    package var isWritable: Bool { write != nil }
    package var isCyclable: Bool { cycle != nil }
}

/// The one property table: mpv's names where mpv has one (what status bars and mpv front ends
/// read), `alicia-…` for ours. The socket's `get_property`/`set_property`/`add`/`cycle`/
/// `observe_property` and `property-list`, MPRIS and `ctl` all read it (as mpv's
/// `mp_properties_base[]` serves every front end).
package enum SessionProperties {
    /// Reads `name`.
    package static func get(_ name: String, _ reading: PropertyReading) -> Result<JSONValue, PropertyFailure> {
        guard let property = property(named: name) else { return .failure(.notFound) }
        return property.read(reading).map { .success($0) } ?? .failure(.unavailable)
    }

    /// The command that sets `name` to `value`.
    package static func set(_ name: String, _ value: JSONValue, _ reading: PropertyReading) -> Result<TransportCommand, PropertyFailure> {
        guard let property = property(named: name) else { return .failure(.notFound) }
        guard let write = property.write else { return .failure(.readOnly) }
        return write(value, reading)
    }

    /// The command that adds `step` to a number property.
    package static func add(_ name: String, _ step: Double, _ reading: PropertyReading) -> Result<TransportCommand, PropertyFailure> {
        switch name {
        // Relative, so presses that arrive together add up (and volume lands on its steps).
        case "volume": return .success(.volume(.by(step)))
        case "speed": return .success(.speed(.by(step)))
        case "time-pos", "playback-time": return .success(.seek(.by(step)))
        case "chapter":
            guard step == step.rounded(), abs(step) < 10_000 else { return .failure(.format("a whole number of chapters")) }
            guard reading.hasItem, reading.details?.chapters.isEmpty == false else { return .failure(.unavailable) }
            return .success(.chapter(.by(Int(step))))
        default: break
        }
        switch get(name, reading) {
        case .success(.number(let now)): return set(name, .number(now + step), reading)
        case .success: return .failure(.format("a number"))
        case .failure(let failure): return .failure(failure)
        }
    }

    /// The command that moves `name` on to its next value (a flag: the other one).
    package static func cycle(_ name: String, _ reading: PropertyReading) -> Result<TransportCommand, PropertyFailure> {
        guard let property = property(named: name) else { return .failure(.notFound) }
        if let cycle = property.cycle { return .success(cycle(reading)) }
        guard case .bool(let flag)? = property.read(reading), property.write != nil else { return .failure(.format("a value that cycles")) }
        return set(name, .bool(!flag), reading)
    }

    /// Every property's name, as `property-list` answers.
    package static var names: [String] { table.map(\.name) }

    /// The property called `name`, including `playlist/N/…` and `playlist/count`.
    package static func property(named name: String) -> SessionProperty? {
        if let found = byName[name] { return found }
        return name.hasPrefix("playlist/") ? playlistMember(name) : nil
    }

    private static let byName = Dictionary(table.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })

    static let table: [SessionProperty] = transport + item + chapterProperties + queueProperties + buffering + ours + lists
}

// MARK: The table

extension SessionProperties {
    static func readOnly(_ name: String, continuous: Bool = false, _ read: @escaping @Sendable (PropertyReading) -> JSONValue?) -> SessionProperty {
        SessionProperty(name: name, isContinuous: continuous, read: read, write: nil, cycle: nil)
    }

    static func property(_ name: String, continuous: Bool = false, read: @escaping @Sendable (PropertyReading) -> JSONValue?,
                         write: @escaping @Sendable (JSONValue, PropertyReading) -> Result<TransportCommand, PropertyFailure>,
                         cycle: (@Sendable (PropertyReading) -> TransportCommand)? = nil) -> SessionProperty {
        SessionProperty(name: name, isContinuous: continuous, read: read, write: write, cycle: cycle)
    }

    /// Microseconds are plenty (and keep 83.42 from printing as 83.420000000000002).
    package static func rounded(_ value: Double, places: Double = 6) -> Double {
        let scale = pow(10, places)
        return (value * scale).rounded() / scale
    }

    static func seconds(_ value: Double?) -> JSONValue? { value.map { .number(rounded($0)) } }

    /// Seconds from the start: a number, or a time as people type it (`1:20`, `1:45:00`).
    static func clock(_ value: JSONValue) -> Double? {
        if let seconds = value.numberValue { return seconds }
        guard case .seconds(let seconds)? = value.stringValue.flatMap(TimeSpec.parse) else { return nil }
        return seconds
    }

    /// A value as `get_property_string` gives it: flags as yes/no, whole numbers without a point.
    package static func text(_ value: JSONValue) -> JSONValue {
        switch value {
        case .string: return value
        case .bool(let flag): return .string(flag ? "yes" : "no")
        case .number(let number): return .string(self.number(number))
        case .null: return .null
        default: return .string(String(decoding: value.text(layout: .compact) ?? [], as: UTF8.self))
        }
    }

    /// A number as a command line writes it: `5`, `-0.25`.
    package static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }

    static func requireItem(_ reading: PropertyReading, _ command: TransportCommand) -> Result<TransportCommand, PropertyFailure> {
        reading.hasItem ? .success(command) : .failure(.unavailable)
    }

    static let transport: [SessionProperty] = [
        property("pause", read: { .bool($0.snapshot.state == .paused) }, write: { value, _ in
            guard let paused = value.flagValue else { return .failure(.format("true or false")) }
            return .success(paused ? .pause : .resume)
        }, cycle: { _ in .togglePause }),
        property("time-pos", continuous: true, read: { seconds($0.position) }, write: { value, reading in
            guard let seconds = clock(value) else { return .failure(.format("a time (90, 1:20)")) }
            return requireItem(reading, .seek(.to(max(0, seconds))))
        }),
        property("playback-time", continuous: true, read: { seconds($0.position) }, write: { value, reading in
            guard let seconds = clock(value) else { return .failure(.format("a time (90, 1:20)")) }
            return requireItem(reading, .seek(.to(max(0, seconds))))
        }),
        property("percent-pos", continuous: true, read: { reading in
            guard let position = reading.position, let duration = reading.snapshot.duration, duration > 0 else { return nil }
            return .number(rounded(min(100, position / duration * 100)))
        }, write: { value, reading in
            guard let percent = value.numberValue else { return .failure(.format("a percentage")) }
            return requireItem(reading, .seek(.toFraction(percent / 100)))
        }),
        readOnly("time-remaining", continuous: true) { reading in
            guard let position = reading.position, let duration = reading.snapshot.duration else { return nil }
            return .number(rounded(max(0, duration - position)))
        },
        readOnly("playtime-remaining", continuous: true) { reading in
            guard let position = reading.position, let duration = reading.snapshot.duration else { return nil }
            return .number(rounded(max(0, duration - position) / max(0.01, reading.snapshot.speed)))
        },
        property("speed", read: { .number($0.snapshot.speed) }, write: { value, _ in
            guard let speed = value.numberValue, speed > 0 else { return .failure(.format("a speed (0.5 to 3)")) }
            return .success(.speed(.set(speed)))
        }),
        property("volume", read: { .number(rounded($0.levels.volumePercent, places: 2)) }, write: { value, _ in
            guard let percent = value.numberValue else { return .failure(.format("a percentage (0 to 150)")) }
            return .success(.volume(.set(percent)))
        }),
        property("mute", read: { .bool($0.levels.muted) }, write: { value, _ in
            guard let muted = value.flagValue else { return .failure(.format("true or false")) }
            return .success(.mute(muted ? .on : .off))
        }, cycle: { _ in .mute(.toggle) }),
    ]
}
