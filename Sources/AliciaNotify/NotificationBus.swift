internal import CNotify

/// A failure on the session bus: the negative errno sd-bus returned and what failed, in words.
public struct NotifyError: Error, Equatable, Sendable {
    public var code: Int32
    public var message: String
}

/// What the notification server said it can do (`GetCapabilities`).
public struct NotifyCapabilities: Equatable, Sendable {
    public var actions: Bool
    public var sound: Bool

    public init(actions: Bool, sound: Bool) {
        self.actions = actions
        self.sound = sound
    }
}

/// One signal of the notification server's interface, with the unique bus name that sent it (any
/// process on the bus can send one: `NotificationGate` decides which count).
public enum NotifySignal: Equatable, Sendable {
    case action(id: UInt32, key: String, sender: String)
    case closed(id: UInt32, sender: String)

    public var id: UInt32 {
        switch self {
        case .action(let id, _, _), .closed(let id, _): return id
        }
    }

    public var sender: String {
        switch self {
        case .action(_, _, let sender), .closed(_, let sender): return sender
        }
    }
}

/// A notification as `Notify` takes it. `actions` are (key, label) pairs.
public struct DesktopNotification: Equatable, Sendable {
    public var summary: String
    public var body: String
    public var actions: [(key: String, label: String)]
    public var icon = "alicia-player"
    /// 0 low, 1 normal, 2 critical.
    public var urgency: UInt8 = 1
    /// The `sound-name` hint, sent only when the server lists "sound".
    public var sound: String?

    public init(summary: String, body: String, actions: [(key: String, label: String)] = [], sound: String? = nil) {
        self.summary = summary
        self.body = body
        self.actions = actions
        self.sound = sound
    }

    public static func == (lhs: DesktopNotification, rhs: DesktopNotification) -> Bool {
        lhs.summary == rhs.summary && lhs.body == rhs.body && lhs.icon == rhs.icon && lhs.urgency == rhs.urgency
            && lhs.sound == rhs.sound && lhs.actions.map(\.key) == rhs.actions.map(\.key)
            && lhs.actions.map(\.label) == rhs.actions.map(\.label)
    }
}

/// The owner of one sd-bus connection to the session bus, subscribed to the notification server's
/// signals. One thread uses it (the watcher's); it is closed in `deinit`.
public final class NotificationBus {
    private let handle: OpaquePointer

    private init(handle: OpaquePointer) {
        self.handle = handle
    }

    deinit {
        alicia_notify_close(handle)
    }

    /// Loads libsystemd, connects to the session bus, adds the match rule for `ActionInvoked` and
    /// `NotificationClosed`. Wraps `sd_bus_open_user` and `sd_bus_add_match`.
    public static func open() -> Result<NotificationBus, NotifyError> {
        var handle: OpaquePointer?
        var why = [CChar](repeating: 0, count: 512)
        let r = alicia_notify_open(&handle, &why, why.count)
        guard r >= 0, let handle else { return .failure(NotifyError(code: r, message: Self.text(why))) }
        return .success(NotificationBus(handle: handle))
    }

    /// Wraps `GetCapabilities`: fails when no server owns org.freedesktop.Notifications.
    public func capabilities() throws(NotifyError) -> NotifyCapabilities {
        var actions: Int32 = 0
        var sound: Int32 = 0
        var why = [CChar](repeating: 0, count: 512)
        let r = alicia_notify_capabilities(handle, &actions, &sound, &why, why.count)
        guard r >= 0 else { throw NotifyError(code: r, message: Self.text(why)) }
        return NotifyCapabilities(actions: actions != 0, sound: sound != 0)
    }

    /// Wraps `GetNameOwner("org.freedesktop.Notifications")`: the unique name (":1.42") of the server.
    public func owner() throws(NotifyError) -> String {
        var owner = [CChar](repeating: 0, count: 256)
        var why = [CChar](repeating: 0, count: 512)
        let r = alicia_notify_owner(handle, &owner, owner.count, &why, why.count)
        guard r >= 0 else { throw NotifyError(code: r, message: Self.text(why)) }
        return Self.text(owner)
    }

    /// Wraps `Notify`: the id the server gave the notification.
    public func send(_ notification: DesktopNotification) throws(NotifyError) -> UInt32 {
        let words = notification.actions.flatMap { [$0.key, $0.label] }
        var id: UInt32 = 0
        var why = [CChar](repeating: 0, count: 512)
        let duplicates = words.map { strdupOrNil($0) }
        defer { duplicates.forEach { free($0) } }
        let pointers: [UnsafePointer<CChar>?] = duplicates.map { $0.map { UnsafePointer($0) } }
        let r = pointers.withUnsafeBufferPointer { list in
            alicia_notify_send(handle, notification.icon, notification.summary, notification.body, list.baseAddress,
                               list.count, notification.urgency, notification.sound, &id, &why, why.count)
        }
        guard r >= 0 else { throw NotifyError(code: r, message: Self.text(why)) }
        return id
    }

    /// Waits at most `milliseconds` (nil: no limit) in one `ppoll` on the bus's descriptor, then
    /// handles what came; true when a signal waits for `next()`. Wraps `sd_bus_process`.
    public func wait(milliseconds: Int?) throws(NotifyError) -> Bool {
        let r = alicia_notify_wait(handle, Int32(clamping: milliseconds ?? -1))
        guard r >= 0 else { throw NotifyError(code: r, message: "the session bus closed the connection") }
        return r > 0
    }

    /// The oldest signal received and not yet taken.
    public func next() -> NotifySignal? {
        var signal = alicia_notify_signal()
        guard alicia_notify_next(handle, &signal) == 1 else { return nil }
        let sender = withUnsafeBytes(of: signal.sender) { Self.text($0) }
        if signal.kind == Int32(ALICIA_NOTIFY_ACTION) {
            return .action(id: signal.id, key: withUnsafeBytes(of: signal.action) { Self.text($0) }, sender: sender)
        }
        return .closed(id: signal.id, sender: sender)
    }

    private static func text(_ buffer: [CChar]) -> String {
        buffer.withUnsafeBytes { text($0) }
    }

    private static func text(_ bytes: UnsafeRawBufferPointer) -> String {
        String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
    }
}

#if canImport(Glibc)
import Glibc
#endif

private func strdupOrNil(_ text: String) -> UnsafeMutablePointer<CChar>? { strdup(text) }
