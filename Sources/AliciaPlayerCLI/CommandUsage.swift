import AliciaLocks
import AliciaLibrary
import AliciaHost
/// Each command's own usage: what `alicia-player help COMMAND` and `alicia-player COMMAND --help`
/// print, and what the `Try '…'` line after a usage error points to.
enum CommandUsage {
    /// The usage of `command`; nil for a name that is not a command (or has only the global usage).
    static func text(for command: String) -> String? {
        guard let text = texts[command] else { return nil }
        let options = OptionTable.usageLines(for: command)
        return options.isEmpty || !withTableOptions.contains(command) ? text : text + "\n\nOptions:\n" + options
    }

    /// The commands whose options come from `OptionTable` (`ctl` and `help` say their own).
    static let withTableOptions: Set<String> = ["play", "queue", "script", "studio", "demo", "playlists", "playlist", "tracks",
                                                "messages", "reply", "react",
                                                "download", "cache", "notes", "speak", "voice", "chat", "config",
                                                "subscribe", "unsubscribe", "shows", "refresh", "episodes", "export", "watch", "sync", "render"]

    static let texts: [String: String] = [
        "play": """
            Usage: alicia-player play <ref>... [options]

            Plays the references in order as one queue, gaplessly, to its end (exit 0). On a terminal
            it opens the Studio with the queue playing and exits when the queue has ended; a reference
            that cannot be opened, decoded or started where asked fails before the Studio opens.
            A <ref> is an http://, https:// or file:// URL, a path, an episode label (S11E04), an index
            as `tracks` prints it (3), or a piece of a title.
            A LIST.m3u, LIST.m3u8 or LIST.pls among the references plays as `queue` plays it; one
            on the web (a station list) is fetched and its streams play in order. A live stream
            (internet radio: ICY headers) plays as it is sent, its titles shown as they come; it
            keeps no place and cannot seek.
            """,
        "queue": """
            Usage: alicia-player queue <list>... [options]

            Plays lists as one queue: M3U/M3U8 (#EXTINF gives the title), PLS, or one reference a line, a
            URL, a path (relative to the list), an episode (label, index, title piece) or voice:REF;
            # comments and blank lines are skipped; - reads standard input. Every line is checked
            before anything plays: a bad one is LIST:LINE: why, exit 2.
            """,
        "script": """
            Usage: alicia-player script <file> [--check] [options]

            Runs a playback script (- reads standard input), one command line a line, # comments,
            in the grammar of the control socket (alicia-player help commands lists it all):
              play REF...  append REF...  next  previous  pause  resume  toggle
              seek +30|-15|1:20|50%|N [absolute]  chapter +1|-1|N  volume 0-150|+5|-5
              mute [on|off|toggle]  speed 0.5-3  voice REF  say TEXT  speak TEXT  get PROPERTY
              set PROPERTY VALUE  cycle PROPERTY  add PROPERTY N  quit
            and its own words: wait (the item)  wait end  wait voice  wait 5s  echo TEXT  status
            The whole script is checked first, every reference resolved: a bad line is FILE:LINE:
            what is wrong, exit 2, and nothing plays.
            """,
        "studio": """
            Usage: alicia-player [studio] [options]

            The interactive Studio over the configured backend: the library, a now-playing panel,
            Alicia's replies; press ? in it for the keys. Without a terminal it plays the library in
            order and prints a status line every few seconds.
            """,
        "demo": """
            Usage: alicia-player demo [options]
                   alicia-player demo --serve [--port N] [--token TOKEN]

            Starts a demo backend on 127.0.0.1 (a generated library, chat and voice notes) and opens
            the Studio on it. With --serve there is no Studio: the backend runs until Ctrl-C and prints
            `export ALICIA_BASE_URL=… ALICIA_TOKEN=…` for a shell, so the other commands can be tried
            against it from another terminal.
            """,
        "playlists": """
            Usage: alicia-player playlists [--json]

            Lists Alicia's playlists: name, items, length, and how many are still being voiced.
            `play playlist:NAME` plays one (any case, a unique piece of the name, or its index):
            episodes as episodes, a piece read aloud as one item of its chunks.
            """,
        "playlist": """
            Usage: alicia-player playlist ACTION ...

            Edits Alicia's playlists and prints the playlist as it is then:
              create NAME            a new, empty playlist
              rename NAME NEW        a new name
              delete NAME            the playlist, without asking
              add NAME REF           an episode (a label, an index or a piece of a title)
              add NAME --text TEXT   a text read aloud (or --file F, - for standard input): the
                                     backend voices it, as the app's read-aloud pieces
              remove NAME ITEM       an item (its number in the playlist, or a piece of its title)
              move NAME ITEM POS     an item to position POS (1 is the first)
            """,
        "tracks": """
            Usage: alicia-player tracks [--json]

            Lists the backend's episodes by collection, with the indexes `play` takes.
            """,
        "download": """
            Usage: alicia-player download <ref>... [--queue FILE] [--pin] [--rate LIMIT]

            Downloads episodes (a label, an index, a title piece), whole playlists (playlist:NAME,
            read-aloud pieces included) and the episodes of queue files (--queue FILE, repeatable)
            into $XDG_CACHE_HOME/alicia-player (default ~/.cache/alicia-player), at most 2 at once.
            A cached episode plays from the file, with no request, also when the backend is away.
            An interrupted download (Ctrl-C, a dropped connection, a full disk) resumes where it
            stopped; a file changed on the server starts over. Then the cache is brought within
            its bound (cache --max-size): played episodes go first, then the oldest.
            """,
        "cache": """
            Usage: alicia-player cache [--max-size SIZE] | cache clear [REF...]

            Lists what is downloaded: label, title, size, played (✓) and pinned, and the total.
            --max-size SIZE sets the cache's bound (2G, 500M; default 2G), keeps it in the config
            file as cache_max_size, and removes what is over it at once: played episodes first,
            then the oldest; never pinned ones or ones a running player has queued.
            cache clear removes everything (and unfinished downloads); cache clear REF removes the
            files a label, a title piece or a media path names.
            """,
        "notes": """
            Usage: alicia-player notes <ref>

            Prints an episode's show notes as plain text. <ref> is a label, an index or a piece of a title;
            a subscribed show's episode (SHOW: piece, or a piece of its title) prints its date, length,
            season and episode, the feed's notes as words, who is in it and how to support the show.
            """,
        "speak": """
            Usage: alicia-player speak TEXT... [options]
                   alicia-player speak --file FILE | speak - [options]

            Reads a text aloud: posts it to the backend's /api/speak and plays it as it is voiced,
            from its first chunk on, each later chunk joined without a gap as it is listed (while
            the voice is behind, it waits in silence: "voicing…"). The words of TEXT are joined
            with spaces; --file FILE reads the text from a file, - from standard input. The text
            goes in one request; the backend says what it does past its limits (failed or empty:
            one line, exit 1). Scripts say `speak TEXT`; the control socket takes `speak TEXT`.
            """,
        "voice": """
            Usage: alicia-player voice <ref> [--volume N] [--device SINK] [--read-ahead SECONDS] [--loudness off|TARGET]

            Plays one voice note: a URL, a path, or a media path of the backend (/api/audio/voice-1.wav).
            """,
        "chat": """
            Usage: alicia-player chat "text" [--voice] [--react EMOJI]

            Sends Alicia a message and prints her reply as it streams in, then `message ID`.
            On a terminal her Markdown shows as bold, italic, reverse-video code and underlined
            links; in a pipe it is plain text (no marks). A reply that stops before its end (her
            error, or the stream cut) keeps her words printed, says why, and exits 1; sent
            again, the same text goes with the same request id (no reply is made twice).
            Without a message: her own messages, as alicia-player messages.
            """,
        "messages": """
            Usage: alicia-player messages [--json]

            Alicia's own messages (the ones she writes first), newest first: each with its id,
            its date, "asks" when she asks you something, and her text. reply ID TEXT answers
            one that asks; react ID EMOJI reacts to one.
            """,
        "reply": """
            Usage: alicia-player reply <id> TEXT...

            Answers a message in which Alicia asks you something (the id as messages lists it),
            and prints what she says back.
            """,
        "react": """
            Usage: alicia-player react <id> EMOJI

            Reacts to one of Alicia's messages (an id from messages) or to a chat reply (the
            `message ID` chat prints).
            """,
        "ctl": """
            Usage: alicia-player ctl [--ipc PATH | --player NAME|PID] [--json] [--timeout S] COMMAND [ARGS...]

            Sends one command to the running player (play, queue, script, the Studio)
            over its control socket and prints the reply's data. The socket speaks
            mpv's JSON IPC: socat and mpv's client libraries work on it too.

            COMMAND is a line of the one grammar scripts and the Studio's keys speak
            (alicia-player help commands lists it all), as separate words:
              get PROPERTY        print a property: time-pos, duration, percent-pos,
                                  pause, volume, mute, speed, media-title, metadata,
                                  playlist, playlist-pos, playlist-count, ... (all:
                                  ctl get property-list)
              set PROPERTY VALUE  set pause, time-pos (also 1:20), percent-pos,
                                  volume, mute, speed, playlist-pos, loop-playlist,
                                  loop-file, shuffle, alicia-skip-silence, ...
              pause, resume       pause, play on
              toggle              switch (while a voice note plays: skip it), as space
              next, prev          the next item, or the one before where it was left
              chapter +1|-1|N|list
                                  the next chapter, the one before (after its
                                  first 3 s: its start), chapter N (from 0), the list
              seek T [MODE]       +30 or -15 or a number (from here), 1:20 (from the
                                  start), 50% (of the length); MODE relative,
                                  absolute, absolute-percent, relative-percent
              volume N, speed X   set them (50, 1.5), or move them (+5, -5, +0.25)
              mute [on|off|toggle]
                                  mute (no argument), unmute, or switch
              cycle PROPERTY      the next value: pause, mute, loop-playlist, shuffle,
                                  alicia-skip-silence, alicia-sleep
              status              state, position, length and title in one line
              loadfile REF [MODE] play REF now, or append, append-play, insert-next
                                  (a relative path is taken from here)
              voice REF           play a voice note
              say TEXT            send Alicia a message (her voice reply plays)
              transcript          the transcript of what plays (NAME.vtt, .srt or
                                  .json beside it), a cue a line with its start
              quit [STATUS]       end the player
            ctl's own:
              watch [PROPERTY...] print each change (every event when none) as a
                                  line, until the player goes or Ctrl-C
              follow [PROPERTY...]
                                  a push feed for status bars: a line at once and
                                  one a change (the position at most once a
                                  second); a final line when the player exits,
                                  then it waits for the next one. Its options:
                                  --json, --format '{title} {position} {state}',
                                  --waybar (waybar's JSON), --rate SECONDS,
                                  --once (end with the player)
              list                each player running: name, PID, state, title
              idle [PROPERTY...]  block until the next change (any but the
                                  position's when none), print it, exit 0
              wait EVENT          block until the event: end-file, start-file, ...

            Options:
              --ipc PATH          the socket (default:
                                  $XDG_RUNTIME_DIR/alicia-player/socket)
              --player NAME|PID   the player started with --ipc-name NAME, or the
                                  one with that PID (ctl list shows them)
              --json              print the raw replies (and events) as JSON lines
              --timeout S         give up on a player that does not answer within S
                                  seconds (default 5; 0 waits as long as it takes)

            Exit status: 0 success, 1 an error reply (its message on stderr),
            3 no player listening.
            """,
        "config": """
            Usage: alicia-player config [--path] [--base-url URL] [--token TOKEN] [--token-file PATH]
                   alicia-player config get KEY [--reveal]
                   alicia-player config set KEY VALUE

            Prints the effective configuration, one key a line, and where each value came from: a
            flag, the environment (ALICIA_BASE_URL, ALICIA_TOKEN) or a line of the config file
            ($XDG_CONFIG_HOME/alicia/config, default ~/.config/alicia/config). The token shows
            as ***. Every key config set takes is shown (one not set, with its default).

            config get KEY prints one key's effective value (the token as ***; exit 1 when not set);
            --reveal prints the token itself, and only when standard output is a terminal.
            config set KEY VALUE sets base_url, token, token_file, cache_max_size, auto_download,
            accessible, report (on or off: listening reports to the backend), ca_file (a CA
            bundle HTTPS trusts, for every command), keep or delete_played_after (what refresh
            --download leaves of each show: the newest N, none played DAYS ago) in the config file
            (made with mode 0600 if there is none); VALUE - reads it from standard input.
            """,
        "subscribe": """
            Usage: alicia-player subscribe <url|file>...

            Subscribes to podcasts: a feed (RSS 2.0, RSS 1.0, Atom), a web page that names its feed
            (<link rel="alternate">), or an OPML list, a file or a URL (every outline with an
            xmlUrl, nested ones too). One line a show: subscribed: TITLE (N episodes), or already
            subscribed: TITLE. A source that is not a feed, answers an error or cannot be read is
            one line on standard error and exit 1; nothing of it is added, the others are.
            The library is $XDG_DATA_HOME/alicia-player/library.db.
            """,
        "unsubscribe": """
            Usage: alicia-player unsubscribe <show>...

            Forgets shows and their episodes: a show is its title, a piece of it, its number as
            shows lists it, or its feed URL. Positions and played marks are kept.
            """,
        "shows": """
            Usage: alicia-player shows [--json]

            The subscribed shows by title, each with its number, feed URL (after any move), episode
            count, new count and why its last refresh failed, if it did. --json: objects with title,
            url, link, image, episodes, new, error (null or why) and last_checked.
            """,
        "refresh": """
            Usage: alicia-player refresh [<show>...] [--quiet] [--download N]

            Fetches every subscribed feed (or the shows named) several at once, a few a host, with
            conditional requests (a feed that did not change costs a 304), and adds what is new:
            new: SHOW: TITLE a line, then a line that sums up. A feed that moved (301, 308,
            itunes:new-feed-url) is followed; a server that asks to wait (429 or 503 with
            Retry-After) is not asked again before then. Exit 1 if any feed failed, each named once
            with why on standard error; every other feed is refreshed all the same.
            --quiet prints only the failures: for cron. --download N then keeps the newest N unplayed
            episodes of each show downloaded (as download does: the cache stays within its bound,
            played episodes leaving it first); they play from the cache, offline too.
            """,
        "episodes": """
            Usage: alicia-player episodes [<show>] [--new] [--json]

            The episodes of every subscribed show (or of one), newest first, numbered, with the date,
            length, where you left it and marks for new, played and downloaded. --new lists only the
            new ones (found by a refresh, not yet started). --json: objects with index, show, title,
            guid, url (the enclosure), published (ISO 8601 UTC or null), duration (seconds or null),
            chapters_url, transcript_url, season, episode, position, played, downloaded and new.
            Play one with alicia-player play "SHOW: piece of its title" or a piece of its title.
            """,
        "export": """
            Usage: alicia-player export

            Prints every subscription as OPML 2.0 on standard output: what gPodder, AntennaPod and
            newsboat import (alicia-player export > podcasts.opml).
            """,
        "watch": """
            Usage: alicia-player watch [--once] [--interval DURATION]

            A quiet background process: each round (every 60 s, or --interval) it asks the backend
            for Alicia's proactive messages and tracks, and refreshes each subscribed feed as often
            as it says it changes (else every 12 hours); what is new becomes a desktop notification (org.freedesktop.Notifications
            on the session bus). A message of hers is one notification with a Read aloud action
            (voiced through /api/speak, played on a running player's voice-note player, or on its
            own); at most three at once, the rest marked seen. New episodes are one notification a
            round with a Play action (the newest, in the running player or a new one). What was
            there before the first run, and what was shown, is never shown again (the ids are kept
            in the library database). A missing notification server or session bus, or a backend
            that cannot be reached or refuses the token, is one line on standard error when it
            starts and one when it ends; the watcher waits longer each time and keeps going.
            --once runs one round and exits (1 with the line when anything failed): for cron.
            scripts/install adds a systemd user unit, alicia-player-watch.service, to enable.
            """,
        "sync": """
            Usage: alicia-player sync setup URL --user NAME [--device ID] | sync | sync status

            Keeps the place and the subscriptions the same as on the listener's phone, through the
            server AntennaPod, Kasts and gPodder sync with: gpodder.net's API (gpodder.net, mygpo,
            opodsync, gpodder-fastapi-router) or Nextcloud's GPodder Sync app; which one is found
            by asking. setup takes the password from ALICIA_SYNC_PASSWORD, standard input, or the
            terminal (not echoed), keeps the account in a 0600 file
            ($XDG_CONFIG_HOME/alicia-player/sync.json) and syncs once; the device id defaults to
            alicia-player-HOSTNAME. sync syncs now: the server's subscription changes are taken
            here and this library's are sent; the account's episode positions are taken where
            they are newer than the one heard here (never an older one), and what was heard here
            since is sent, with each episode's GUID beside its URL. A player syncs on its own at
            start (never holding up first audio), on pause, at an item's end, once a minute while
            playing and when it quits; --no-sync turns that off for one run. Offline, what was
            heard waits and goes with the next sync that reaches the server. sync status shows the
            server, the device, the last sync, what waits and the last error. The password is
            never shown (***), and nothing with Alicia's token in it is ever sent.
            """,
        "render": """
            Usage: alicia-player render <ref>... | --queue FILE... | --script FILE -o FILE [--speed X] [--skip-silence[=LEVEL]]
                                        [--loudness off|TARGET] [--start T] [--bitrate K | --quality Q]

            Plays the queue play would make (URLs, paths, episodes, playlist:NAME, M3U lists,
            speak:TEXT; queue files, one reference a line, as queue takes them; or the queue a
            script's lines load, waits and settings left out) into one file, as fast as it decodes and encodes, not in real time: what
            you would hear, with the speed (pitch kept), the shortened pauses, the matched loudness
            and the gapless joins. The extension names the format: .wav, .flac, .opus (or .ogg:
            Ogg Opus) or .mp3. The file holds a chapter per item (its title from the backend, a
            feed or its tags) and each item's own chapters at their new times (ID3 CHAP/CTOC in
            MP3, CHAPTERnnn comments in Ogg and FLAC), a title (the playlist's name or the first
            item's), an album and the first item's cover. A progress line with the time left on a
            terminal, nothing on a pipe. The file is written beside its name and renamed into
            place when whole: Ctrl-C leaves nothing under the name. An item that fails is said and
            skipped (exit 1 at the end); a bad output path or extension is one line, exit 2,
            before anything is fetched.
            """,
        "help": """
            Usage: alicia-player help [COMMAND | commands | keys]

            Prints the usage of alicia-player, or of one command: studio, play, queue, script,
            playlists, playlist, tracks, notes, download, cache, demo, voice, chat, ctl, config,
            subscribe, unsubscribe, shows, refresh, episodes, export, watch, sync, render.
            help commands lists the one grammar the control socket, scripts, ctl and the
            Studio's keys speak; help keys the Studio's keys in effect.
            """,
    ]
}
