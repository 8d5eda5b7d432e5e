extension DemoLibrary {
    /// Two collections ("Season 1", "Nights"), an episode with no audio yet and one without the
    /// optional fields, so that clients meet the contract's defaults. Formats differ on purpose:
    /// 48 and 44.1 kHz, stereo and mono, from 45 s to 45 min.
    static let standardEpisodes: [DemoEpisode] = [
        DemoEpisode(
            title: "Morning Light",
            mood: "Bright · unhurried",
            symbol: "sunrise",
            label: "S1E01",
            season: 1,
            episode: 1,
            series: "Alicia",
            collection: "S1",
            collectionTitle: "Season 1",
            audioName: "s1e01",
            sound: EpisodeSound(arrangement: .morningLight, seconds: 180, sampleRate: 48_000, channels: 2),
            summary: "Alicia opens the season with the first hour of the day: the kettle, the window, and the plan that can wait until the coffee is done.",
            highlights: ["D major, 84 beats per minute", "An electric piano arpeggio over a warm pad", "48 kHz stereo, three minutes"]
        ),
        DemoEpisode(
            title: "The Long Way Round",
            mood: "Reflective · slow",
            symbol: "point.topleft.down.to.point.bottomright.curvepath",
            label: "S1E02",
            season: 1,
            episode: 2,
            series: "Alicia",
            collection: "S1",
            collectionTitle: "Season 1",
            audioName: "s1e02",
            sound: EpisodeSound(arrangement: .longWayRound, seconds: 127.5, sampleRate: 44_100, channels: 1),
            summary: "On detours, and why the road you did not plan is often the one you remember.",
            highlights: ["A minor, kalimba triplets", "44.1 kHz mono, a little over two minutes", "Its length is not a whole number of seconds"]
        ),
        DemoEpisode(
            title: "Paper Boats",
            mood: "Playful · light",
            symbol: "sailboat",
            label: "S1E03",
            season: 1,
            episode: 3,
            series: "Alicia",
            collection: "S1",
            collectionTitle: "Season 1",
            plannedSeconds: 1_500,
            summary: "Still being recorded: this entry has no audio yet, so players should show it without offering to play it.",
            highlights: ["No `fileName` in /api/tracks", "Show notes are available already"]
        ),
        DemoEpisode(
            title: "Slow Tide",
            mood: "Calm · nocturnal",
            symbol: "water.waves",
            label: "NIGHTS-1",
            episode: 1,
            series: "Alicia Nights",
            collection: "NIGHTS",
            collectionTitle: "Nights",
            audioName: "nights-1",
            sound: EpisodeSound(arrangement: .slowTide, seconds: 2_700, sampleRate: 48_000, channels: 2),
            summary: "Forty-five minutes of slow chords and sparse bells for falling asleep. Long on purpose: playback should start at once and seek anywhere without downloading the file.",
            highlights: ["Major ninth chords that breathe every eleven seconds", "48 kHz stereo, 45 minutes (about 520 MB as WAV)", "No season number: clients default it to 0"]
        ),
        DemoEpisode(
            title: "Lantern Hours",
            mood: "Tender · swaying",
            symbol: "light.max",
            label: "NIGHTS-2",
            episode: 2,
            series: "Alicia Nights",
            collection: "NIGHTS",
            collectionTitle: "Nights",
            audioName: "nights-2",
            sound: EpisodeSound(arrangement: .lanternHours, seconds: 361.3, sampleRate: 44_100, channels: 2),
            summary: "A waltz for the late walk home, under the street lamps.",
            highlights: ["F major in three-four time", "A music box over soft ticks", "44.1 kHz stereo, six minutes"]
        ),
        DemoEpisode(
            title: "A Short Interlude",
            mood: "Quiet · simple",
            symbol: "leaf",
            label: "INTERLUDE",
            audioName: "interlude",
            sound: EpisodeSound(arrangement: .interlude, seconds: 45, sampleRate: 48_000, channels: 1),
            summary: "A breath between seasons. This entry has no season, series or collection: clients file it under their defaults.",
            highlights: ["G major, one note per beat", "48 kHz mono, 45 seconds"]
        ),
    ]
}
