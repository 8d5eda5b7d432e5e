import Testing
@testable import AliciaAudio

/// The advice when no sound server answers names the server the machine has.
@Suite struct SoundServerAdviceTests {
    @Test func eachServerItsOwnWayToStart() {
        #expect(SoundServerAdvice.pulseAudio.words == "start one with `pulseaudio --start`")
        #expect(SoundServerAdvice.pipeWire.words.contains("systemctl --user restart pipewire pipewire-pulse"))
        #expect(!SoundServerAdvice.pipeWire.words.contains("pulseaudio --start"))
        #expect(SoundServerAdvice.both.words.contains("pipewire") && SoundServerAdvice.both.words.contains("pulseaudio --start"))
        #expect(SoundServerAdvice.neither.words.contains("install"))
        let line = PlaybackError.noAudioServer(reason: "Connection refused").message
        #expect(line.hasPrefix("no PulseAudio server (Connection refused): ") && line.hasSuffix("or point PULSE_SERVER at one"))
        #expect(line.contains(SoundServerAdvice.installed.words))
    }
}
