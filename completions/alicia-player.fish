# fish completion for alicia-player: commands, options, sinks for --device (pactl), and references
# from the completion cache the last `alicia-player tracks` / `playlists` wrote (no network).

function __alicia_player_cache
    set -l dir $XDG_CACHE_HOME
    test -n "$dir"; or set dir $HOME/.cache
    set -l file $dir/alicia-player/completion/$argv[1]
    test -r $file; and cat $file
end

function __alicia_player_references
    __alicia_player_cache labels
    __alicia_player_cache titles
    __alicia_player_cache playlists | string replace -r '^' 'playlist:'
end

# The socket's properties and commands, as the player's property and command tables name them
# (a test holds these lists to the tables).
set -g __alicia_player_properties duration media-title filename path metadata file-format file-size audio-params seekable mpv-version playlist playlist-pos playlist-playing-pos playlist-count shuffle idle-active eof-reached core-idle paused-for-cache cache-buffering-state demuxer-cache-duration alicia-label alicia-state alicia-voice alicia-skip-silence alicia-time-saved alicia-sleep alicia-loudness alicia-loudness-gain property-list command-list pause time-pos playback-time percent-pos time-remaining playtime-remaining speed volume mute loop-playlist loop-file pid chapter chapters chapter-list transcript
set -g __alicia_player_socket_commands set loadfile loadlist playlist-next playlist-prev playlist-play-index playlist-remove playlist-move playlist-clear playlist-shuffle seek stop quit quit-watch-later voice say speak get_property get_property_string set_property set_property_string add cycle observe_property observe_property_string unobserve_property enable_event disable_event client_name get_version status toggle voice-replay voice-skip
set -g __alicia_player_ctl_commands play append pause resume unpause next prev previous chapter volume speed mute unmute get transcript watch follow idle list wait

# Whether the word being completed follows `ctl` and no command yet.
function __alicia_player_ctl_needs_command
    set -l words (commandline -opc)
    set -l seen 0
    for word in $words[2..-1]
        if test $seen = 1
            string match -q -- '-*' $word; or return 1
        end
        test "$word" = ctl; and set seen 1
    end
    test $seen = 1
end

# Whether the word being completed is a property: `ctl get|set|cycle|watch …`, or the name of
# `ctl observe_property ID …`.
function __alicia_player_ctl_wants_property
    set -l words (commandline -opc)
    set -l i (contains -i -- ctl $words); or return 1
    set -l rest
    for word in $words[(math $i + 1)..-1]
        string match -q -- '-*' $word; or set -a rest $word
    end
    switch "$rest[1]"
        case get set cycle add get_property get_property_string set_property set_property_string
            test (count $rest) -eq 1
        case watch
            true
        case 'observe_property*'
            test (count $rest) -eq 2
        case '*'
            false
    end
end

function __alicia_player_sinks
    pactl list short sinks 2>/dev/null | cut -f2
end

set -l commands studio play queue script playlists playlist tracks notes download cache demo speak voice chat messages reply react ctl config subscribe unsubscribe shows refresh episodes export watch sync render help
set -l playing play queue script studio demo speak
complete -c alicia-player -f

complete -c alicia-player -n "not __fish_seen_subcommand_from $commands" -a studio -d 'the interactive Studio'
complete -c alicia-player -n "not __fish_seen_subcommand_from $commands" -a play -d 'play references as one queue'
complete -c alicia-player -n "not __fish_seen_subcommand_from $commands" -a queue -d 'play lists'
complete -c alicia-player -n "not __fish_seen_subcommand_from $commands" -a script -d 'run a playback script'
complete -c alicia-player -n "not __fish_seen_subcommand_from $commands" -a playlists -d "list Alicia's playlists"
complete -c alicia-player -n "not __fish_seen_subcommand_from $commands" -a playlist -d 'edit a playlist'
complete -c alicia-player -n "not __fish_seen_subcommand_from $commands" -a tracks -d 'list the episodes'
complete -c alicia-player -n "not __fish_seen_subcommand_from $commands" -a notes -d "an episode's show notes"
complete -c alicia-player -n "not __fish_seen_subcommand_from $commands" -a demo -d 'the Studio over a demo backend'
complete -c alicia-player -n "not __fish_seen_subcommand_from $commands" -a speak -d 'read a text aloud as it is voiced'
complete -c alicia-player -l file -r -F -n "__fish_seen_subcommand_from speak" -d 'read the text from a file'
complete -c alicia-player -n "not __fish_seen_subcommand_from $commands" -a voice -d 'play one voice note'
complete -c alicia-player -n "not __fish_seen_subcommand_from $commands" -a chat -d 'send Alicia a message'
complete -c alicia-player -n "not __fish_seen_subcommand_from $commands" -a download -d 'download episodes to play offline'
complete -c alicia-player -n "not __fish_seen_subcommand_from $commands" -a cache -d 'what is downloaded'
complete -c alicia-player -n "not __fish_seen_subcommand_from $commands" -a ctl -d 'control the running player'
complete -c alicia-player -n "not __fish_seen_subcommand_from $commands" -a config -d 'the effective configuration'
complete -c alicia-player -n "not __fish_seen_subcommand_from $commands" -a subscribe -d 'subscribe to podcasts: a feed, a page naming one, OPML'
complete -c alicia-player -n "not __fish_seen_subcommand_from $commands" -a unsubscribe -d 'forget a show and its episodes'
complete -c alicia-player -n "not __fish_seen_subcommand_from $commands" -a shows -d 'the subscribed shows'
complete -c alicia-player -n "not __fish_seen_subcommand_from $commands" -a refresh -d 'fetch the feeds, add the new episodes'
complete -c alicia-player -n "not __fish_seen_subcommand_from $commands" -a episodes -d 'the episodes of every show or one'
complete -c alicia-player -n "not __fish_seen_subcommand_from $commands" -a export -d 'every subscription as OPML'
complete -c alicia-player -n "not __fish_seen_subcommand_from $commands" -a watch -d 'her messages and new episodes as desktop notifications'
complete -c alicia-player -n "not __fish_seen_subcommand_from $commands" -a sync -d "positions and subscriptions with the listener's phone"
complete -c alicia-player -n "__fish_seen_subcommand_from sync" -a 'setup status' -d 'set up the account; where sync stands'
complete -c alicia-player -l user -x -n "__fish_seen_subcommand_from sync" -d "sync setup: the account's user name"
complete -c alicia-player -n "not __fish_seen_subcommand_from $commands" -a render -d 'what play would play, into one file with chapters'
complete -c alicia-player -n "not __fish_seen_subcommand_from $commands" -a help -d 'the usage of a command'
complete -c alicia-player -n "__fish_seen_subcommand_from help" -a "$commands"

complete -c alicia-player -s h -l help -d 'show the usage'
complete -c alicia-player -s V -l version -n "not __fish_seen_subcommand_from $commands" -d 'show the version'
complete -c alicia-player -l base-url -x -d 'the backend URL'
complete -c alicia-player -l token -x -d 'the backend token'
complete -c alicia-player -l token-file -r -F -d 'a file holding the token'
complete -c alicia-player -l device -x -a '(__alicia_player_sinks)' -d 'the PulseAudio sink'
complete -c alicia-player -l volume -x -d 'volume in percent, 0 to 150'
complete -c alicia-player -l speed -x -d 'play X times as fast, 0.5 to 3'
complete -c alicia-player -l quiet -n "__fish_seen_subcommand_from studio demo" -d 'no status lines'
complete -c alicia-player -l quiet -n "__fish_seen_subcommand_from refresh" -d 'only the failures, for cron'
complete -c alicia-player -l download -r -n "__fish_seen_subcommand_from refresh" -d 'keep the newest N unplayed episodes of each show downloaded'
complete -c alicia-player -l once -n "__fish_seen_subcommand_from watch" -d 'one round, then exit: for cron'
complete -c alicia-player -l interval -x -n "__fish_seen_subcommand_from watch" -d 'how often to ask the backend (60s, 5m)'
complete -c alicia-player -s o -l output -r -F -n "__fish_seen_subcommand_from render" -d 'the file to make (.wav .flac .opus .mp3)'
complete -c alicia-player -l bitrate -x -n "__fish_seen_subcommand_from render" -d 'kb/s of an Opus or a constant-rate MP3'
complete -c alicia-player -l quality -x -n "__fish_seen_subcommand_from render" -d '0 to 10: a variable-rate MP3, a FLAC effort'
complete -c alicia-player -l script -r -F -n "__fish_seen_subcommand_from render" -d 'the queue a script builds'
complete -c alicia-player -l start -x -n "__fish_seen_subcommand_from play queue script render" -d 'begin at T'
complete -c alicia-player -l read-ahead -x -n "__fish_seen_subcommand_from $playing voice" -d 'seconds to fetch ahead'
complete -c alicia-player -l from-start -n "__fish_seen_subcommand_from $playing" -d 'every episode from its beginning'
complete -c alicia-player -l loop -n "__fish_seen_subcommand_from play queue script" -d 'start again after the last item'
complete -c alicia-player -l shuffle -n "__fish_seen_subcommand_from play queue script" -d 'shuffle once first'
complete -c alicia-player -l voice-at -x -n "__fish_seen_subcommand_from play script" -d 'a voice note at T (T=REF)'
complete -c alicia-player -l voice-focus -x -a 'pause duck mix' -n "__fish_seen_subcommand_from $playing chat" -d 'the episode during a voice note'
complete -c alicia-player -l note-rewind -x -n "__fish_seen_subcommand_from $playing" -d 'seconds to step back after a note'
complete -c alicia-player -l keep-going -n "__fish_seen_subcommand_from queue render" -d 'skip lines that cannot be played'
complete -c alicia-player -l save -r -F -n "__fish_seen_subcommand_from queue" -d 'write the queue as M3U8'
complete -c alicia-player -l check -n "__fish_seen_subcommand_from script" -d 'only check the script'
complete -c alicia-player -l json -n "__fish_seen_subcommand_from playlists tracks shows episodes" -d 'as JSON'
complete -c alicia-player -l new -n "__fish_seen_subcommand_from episodes" -d 'only the new episodes'
complete -c alicia-player -l serve -n "__fish_seen_subcommand_from demo" -d 'the backend alone'
complete -c alicia-player -l port -x -n "__fish_seen_subcommand_from demo" -d 'the port'
complete -c alicia-player -l voicing -x -n "__fish_seen_subcommand_from demo" -d 'voice /api/speak in time (seconds, by commas)'
complete -c alicia-player -l dialect -x -a 'v1 v2' -n "__fish_seen_subcommand_from demo" -d "which form of Alicia's API the demo speaks"
complete -c alicia-player -l voice -n "__fish_seen_subcommand_from chat" -d 'ask for a voice note'
complete -c alicia-player -l react -x -n "__fish_seen_subcommand_from chat" -d 'react to the reply'
complete -c alicia-player -l path -n "__fish_seen_subcommand_from config" -d 'the config file path'
complete -c alicia-player -l reveal -n "__fish_seen_subcommand_from config" -d 'config get token: print the token to a terminal'
complete -c alicia-player -l ipc -r -F -n "__fish_seen_subcommand_from $playing ctl" -d 'the control socket'
complete -c alicia-player -l no-ipc -n "__fish_seen_subcommand_from $playing" -d 'no control socket'
complete -c alicia-player -l no-report -n "__fish_seen_subcommand_from $playing" -d 'tell the backend nothing of what is heard'
complete -c alicia-player -l no-sync -n "__fish_seen_subcommand_from $playing" -d 'no sync with the sync server, this run'
complete -c alicia-player -l ipc-name -r -n "__fish_seen_subcommand_from $playing" -d 'the control socket by name'
complete -c alicia-player -l player -r -n "__fish_seen_subcommand_from ctl" -d 'the player by name or PID'
complete -c alicia-player -l timeout -x -n "__fish_seen_subcommand_from ctl" -d 'seconds to wait for a reply (0: as long as it takes)'
complete -c alicia-player -l format -r -n "__fish_seen_subcommand_from ctl" -d 'a follow line'
complete -c alicia-player -l waybar -n "__fish_seen_subcommand_from ctl" -d 'waybar JSON'
complete -c alicia-player -l rate -r -n "__fish_seen_subcommand_from ctl" -d 'position lines at most this often'
complete -c alicia-player -l once -n "__fish_seen_subcommand_from ctl" -d 'end with the player'
complete -c alicia-player -l give-up-after -x -n "__fish_seen_subcommand_from $playing" -d 'how long to retry a server'
complete -c alicia-player -l stall-timeout -x -n "__fish_seen_subcommand_from $playing" -d 'seconds before a silent transfer is remade'
complete -c alicia-player -l cacert -r -F -d 'a CA bundle for HTTPS (a private CA)'
complete -c alicia-player -l skip-silence -n "__fish_seen_subcommand_from $playing render" -d 'shorten pauses (=mild, medium, strong)'
complete -c alicia-player -l sleep -x -a '15m 30m 45m 1h end chapter' -n "__fish_seen_subcommand_from $playing" -d 'fade out and pause after T'
complete -c alicia-player -l loudness -x -a 'off -16 -19 -23' -n "__fish_seen_subcommand_from $playing voice render" -d 'match loudness (LUFS)'
complete -c alicia-player -l auto-download -x -a '0 1 2 3' -n "__fish_seen_subcommand_from play queue script studio" -d 'download the next N queue items while playing'
complete -c alicia-player -l accessible -n "__fish_seen_subcommand_from $playing tracks" -d 'linear text for screen readers'
complete -c alicia-player -l progress-every -x -a '1m 5m 10m' -n "__fish_seen_subcommand_from $playing" -d 'with --accessible, say the progress each T'
complete -c alicia-player -l queue -r -F -n "__fish_seen_subcommand_from download render" -d 'what a queue file names'
complete -c alicia-player -l pin -n "__fish_seen_subcommand_from download" -d 'keep until removed by hand'
complete -c alicia-player -l rate -x -n "__fish_seen_subcommand_from download" -d 'at most this many bytes a second'
complete -c alicia-player -l max-size -x -n "__fish_seen_subcommand_from cache" -d 'the cache bound'
complete -c alicia-player -l json -n "__fish_seen_subcommand_from ctl" -d 'raw replies'
complete -c alicia-player -n "__fish_seen_subcommand_from ctl; and __alicia_player_ctl_needs_command" -a "$__alicia_player_ctl_commands $__alicia_player_socket_commands"
complete -c alicia-player -n "__fish_seen_subcommand_from ctl; and __alicia_player_ctl_wants_property" -a "$__alicia_player_properties"
complete -c alicia-player -n "__fish_seen_subcommand_from cache" -a clear
complete -c alicia-player -n "__fish_seen_subcommand_from download" -a '(__alicia_player_references)'

complete -c alicia-player -n "__fish_seen_subcommand_from play notes voice" -a '(__alicia_player_references)'
complete -c alicia-player -n "__fish_seen_subcommand_from play queue script subscribe" -F
complete -c alicia-player -n "__fish_seen_subcommand_from playlist; and not __fish_seen_subcommand_from create rename delete add remove move show" -a 'create rename delete add remove move show'
complete -c alicia-player -n "__fish_seen_subcommand_from rename delete add remove move show" -a '(__alicia_player_cache playlists)'
complete -c alicia-player -n "__fish_seen_subcommand_from config; and not __fish_seen_subcommand_from get set" -a 'get set'
complete -c alicia-player -n "__fish_seen_subcommand_from config; and __fish_seen_subcommand_from get set" -a 'base_url token token_file cache_max_size auto_download accessible'
complete -c alicia-player -l text -r -n "__fish_seen_subcommand_from playlist" -d 'playlist add: a text read aloud'
complete -c alicia-player -l file -r -F -n "__fish_seen_subcommand_from playlist" -d 'playlist add: the text from a file'
