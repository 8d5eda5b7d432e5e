#if canImport(Glibc)
import Glibc
#endif
import AliciaAudio
import AliciaBackend
import AliciaControl
import AliciaLocks
import AliciaReports
import AliciaSession
import AliciaSync
import AliciaLibrary

/// A front end of a listening session: the `play` progress line, a script, the plain Studio, the
/// Studio, a chat. It gives the host only how it draws and what it does with notices; the host owns
/// everything else.
package protocol HostedFrontEnd: AnyObject {
    /// Descriptors it reads (the Studio's stdin), polled with the session's.
    var descriptors: [Int32] { get }
    /// When it wants a turn without any input (`MonotonicClock` seconds): a redraw, a script's
    /// `wait 5s`, a status line. Nil: only when something happens.
    func deadline() -> Double?
    /// One turn of the loop: what the session said, which of `descriptors` are readable, and the
    /// signals that came. Returns the exit status to end with, or nil to go on.
    func turn(_ notices: [SessionNotice], readable: Set<Int32>, signals: [Int32]) -> Int32?
}

/// What every playing command shares (MPD's main loop, mpv's `run_playloop`): the control socket,
/// the session, the signals, the control server, auto-download and listening reports, and one
/// `poll` loop whose timeout is the earliest deadline anyone asked for (the front end, the
/// session's position saves, the reports' next tick); nothing ticks on a fixed period.
package final class SessionHost {
    package let options: PlayOptions
    package let signals: SignalWatcher
    package let session: ListeningSession
    private let listener: ControlSocket.Listener?
    private var server: ControlServer?
    private var downloads: AutoDownloader?
    private var hooks: HookRunner?
    private var reports: ListeningReports?
    private var sync: SyncAgent?
    private var closed = false
    /// The backend listening reports go to, for a front end that has one of its own (the demo's);
    /// nil: the one the options, the environment and the config file name. Set before `start`.
    package var reportBackend: BackendConfiguration?

    private init(options: PlayOptions, signals: SignalWatcher, session: ListeningSession, listener: ControlSocket.Listener?) {
        self.options = options
        self.signals = signals
        self.session = session
        self.listener = listener
    }

    /// Takes the control socket before anything plays (a second instance says so and stops here),
    /// then makes the session. `voiceNotes`: whether it has a voice-note player (a socket can
    /// always ask for one).
    package static func open(_ options: PlayOptions, signals: SignalWatcher, voiceNotes: Bool = true,
                     adjust: (inout ListeningSession.Options) -> Void = { _ in }) -> Result<SessionHost, HostFailure> {
        let listener: ControlSocket.Listener?
        switch RemoteControl.listen(options) {
        case .success(let bound): listener = bound
        case .failure(let failure): return .failure(HostFailure(status: failure.status))
        }
        var sessionOptions = SessionSetup.options(options, voiceNotes: voiceNotes || !options.noIPC)
        adjust(&sessionOptions)
        let session = ListeningSession(sessionOptions)
        let waker = session.waker
        signals.whenSignalled { waker() }
        return .success(SessionHost(options: options, signals: signals, session: session, listener: listener))
    }

    package struct HostFailure: Error {
        package let status: Int32
    }

    /// Serves the socket and MPRIS and starts auto-download and listening reports (`notify` says
    /// their warnings).
    package func start(notify: @escaping @Sendable (String) -> Void) {
        if server == nil, !options.noIPC {
            server = RemoteControl.serve(session, listener: listener, options: options)
        }
        if hooks == nil { hooks = HookRunner.configured(warn: notify) }
        if downloads == nil {
            downloads = AutoDownloader.start(options.autoDownload, view: session.view, remote: session.remote,
                                             wake: session.waker, notify: notify)
        }
        if reports == nil {
            reports = ListeningReports.start(backend: reportBackend ?? Self.configuredBackend(options.backend), turnedOff: options.noReport,
                                             notify: notify)
        }
        if sync == nil { sync = SyncAgent.start(turnedOff: options.noSync, environment: SyncAccount.environment(), notify: notify) }
    }

    /// The listener chose `item` explicitly (not what plays next by itself): reported as `selected`
    /// when it is one of Alicia's episodes.
    package func reportSelected(_ item: QueueItem) {
        reports?.selected(item)
    }

    /// The backend `options` name with the environment and the config file; nil when none is
    /// configured or it does not make a configuration (its warnings are said where it is used).
    private static func configuredBackend(_ options: BackendOptions) -> BackendConfiguration? {
        let sources = ConfigurationLoader.Sources(baseURL: options.baseURL, token: options.token, tokenFile: options.tokenFile,
                                                  environment: BackendSession.environment())
        var warnings: [String] = []
        return try? ConfigurationLoader.resolve(sources, warnings: &warnings)
    }

    /// Runs `frontEnd` until it returns a status, a stopping signal comes (128 + it) or a remote
    /// `quit` (its status); then closes everything.
    package func run(_ frontEnd: HostedFrontEnd) -> Int32 {
        defer { close() }
        var readable: Set<Int32> = []
        while true {
            let notices = session.notices()
            hooks?.update(notices, session.view.snapshot())
            session.tick()
            downloads?.update()
            let pending = signals.takePending()
            let status = frontEnd.turn(notices, readable: readable, signals: pending)
            // After the front end's turn: a seek or a skip it just asked shows as pending.
            reports?.update(notices, session.view.snapshot())
            sync?.update(notices, session.view.snapshot())
            // A stopping signal wins over what the front end made of the same turn's notices (an
            // item that ended just as Ctrl-C came is still an interrupt: 130, not 0).
            if let signal = signals.signal {
                Log.info(.cli, "signal \(signal): stopping")
                return 128 + signal
            }
            if let status { return status }
            if let quit = session.quitRequested { return quit }
            readable = wait(frontEnd)
        }
    }

    /// Polls the session, the signals and the front end's descriptors until one is ready or the
    /// earliest deadline passes; the front end's readable descriptors.
    private func wait(_ frontEnd: HostedFrontEnd) -> Set<Int32> {
        let deadlines = [frontEnd.deadline(), session.nextDeadline, reports?.deadline()].compactMap { $0 }
        var timeout: Int32 = -1
        if let earliest = deadlines.min() {
            timeout = Int32(max(0, min(3_600_000, ((earliest - MonotonicClock.seconds()) * 1000).rounded(.up))))
        }
        let extra = frontEnd.descriptors
        var fds = [pollfd(fd: session.fileDescriptor, events: Int16(POLLIN), revents: 0),
                   pollfd(fd: signals.wakeDescriptor, events: Int16(POLLIN), revents: 0)]
        fds += extra.map { pollfd(fd: $0, events: Int16(POLLIN), revents: 0) }
        _ = poll(&fds, nfds_t(fds.count), timeout)
        return Set(fds.dropFirst(2).filter { $0.revents != 0 }.map(\.fd))
    }

    /// Holds the players (silent at once), then closes the server (clients hear `end-file` and
    /// `shutdown`), the hooks, auto-download, the session (its position saved) and the reports
    /// (what was heard is written, and sent meanwhile for a moment). Idempotent.
    package func close() {
        guard !closed else { return }
        closed = true
        session.hold()
        reports?.close(session.view.snapshot())
        server?.close()
        hooks?.close()
        downloads?.close()
        Log.info(.cli, "closing the session")
        session.close()
        reports?.finish()
        // After the session saved its position: the last pass sends it.
        sync?.close()
        Log.info(.cli, "closed")
    }
}
