#if canImport(Glibc)
import Glibc
#endif

/// How to start the sound server this machine has, for the line that says none answers: Debian 12's
/// desktops run PipeWire (pipewire-pulse speaks PulseAudio's protocol, started by the user's
/// systemd), servers and minimal installs PulseAudio. Found by which of the two is installed.
enum SoundServerAdvice: Equatable {
    case pulseAudio, pipeWire, both, neither

    static let installed: SoundServerAdvice = {
        let directories = (getenv("PATH").map { String(cString: $0) } ?? "/usr/bin:/bin").split(separator: ":")
        func has(_ program: String) -> Bool { directories.contains { access("\($0)/\(program)", X_OK) == 0 } }
        switch (has("pipewire-pulse"), has("pulseaudio")) {
        case (true, true): return .both
        case (true, false): return .pipeWire
        case (false, true): return .pulseAudio
        case (false, false): return .neither
        }
    }()

    static let pipeWireRestart = "`systemctl --user restart pipewire pipewire-pulse wireplumber`"

    var words: String {
        switch self {
        case .pulseAudio: return "start one with `pulseaudio --start`"
        case .pipeWire: return "start PipeWire with \(Self.pipeWireRestart)"
        case .both: return "start PipeWire with \(Self.pipeWireRestart) or PulseAudio with `pulseaudio --start`"
        case .neither: return "install one (pipewire-pulse or pulseaudio)"
        }
    }
}
