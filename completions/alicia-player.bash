# bash completion for alicia-player                                  -*- shell-script -*-
# Commands, options, sinks for --device (pactl), and references from the completion cache that
# the last `alicia-player tracks` / `playlists` wrote: completing never waits on the network.

_alicia_player_cache() {
    local file="${XDG_CACHE_HOME:-$HOME/.cache}/alicia-player/completion/$1"
    [[ -r $file ]] && cat -- "$file"
}

_alicia_player_options() {
    local backend="--base-url --token --token-file --cacert --help"
    local playing="--start --speed --volume --device --read-ahead --from-start --skip-silence --sleep --loudness --auto-download --accessible --progress-every"
    local network="--ipc --ipc-name --no-ipc --no-report --no-sync --give-up-after --stall-timeout"
    local voice="--voice-at --voice-focus --note-rewind"
    case $1 in
        play) echo "$backend $playing $network $voice --loop --shuffle" ;;
        queue) echo "$backend $playing $network --loop --shuffle --keep-going --save" ;;
        script) echo "$backend $playing $network $voice --check --loop --shuffle" ;;
        studio) echo "$backend $network --speed --volume --device --read-ahead --voice-focus --note-rewind --quiet --from-start --skip-silence --sleep --loudness --auto-download --accessible --progress-every" ;;
        demo) echo "--help --serve --port --token --voicing --dialect --ipc --ipc-name --no-ipc --no-report --no-sync --give-up-after --stall-timeout --speed --volume --device --read-ahead --voice-focus --note-rewind --quiet --from-start --skip-silence --sleep --loudness --accessible --progress-every" ;;
        download) echo "$backend --queue --pin --rate" ;;
        cache) echo "$backend --max-size" ;;
        ctl) echo "--ipc --player --json --timeout --help --format --waybar --rate --once" ;;
        playlists) echo "$backend --json" ;;
        tracks) echo "$backend --json --accessible" ;;
        playlist) echo "$backend --text --file" ;;
        notes) echo "$backend" ;;
        speak) echo "$backend $network --file --speed --volume --device --read-ahead --skip-silence --sleep --loudness" ;;
        voice) echo "$backend --device --read-ahead --volume" ;;
        chat) echo "$backend --voice --react --device --voice-focus --volume --json" ;;
        messages) echo "$backend --json" ;;
        reply | react) echo "$backend" ;;
        config) echo "$backend --path --reveal" ;;
        subscribe | unsubscribe | export) echo "--help" ;;
        shows) echo "--help --json" ;;
        refresh) echo "--help --quiet --download" ;;
        episodes) echo "--help --new --json" ;;
        watch) echo "$backend --once --interval" ;;
        sync) echo "--help --user --device --cacert setup status" ;;
        render) echo "$backend -o --output --bitrate --quality --speed --skip-silence --loudness --start --keep-going --queue --script" ;;
        help) echo "" ;;
        *) echo "$backend -h -V --device --quiet --volume --speed --version" ;;
    esac
}

# The socket's properties and commands, as the player's property and command tables name them
# (a test holds these lists to the tables).
_alicia_player_properties="duration media-title filename path metadata file-format file-size audio-params seekable mpv-version playlist playlist-pos playlist-playing-pos playlist-count shuffle idle-active eof-reached core-idle paused-for-cache cache-buffering-state demuxer-cache-duration alicia-label alicia-state alicia-voice alicia-skip-silence alicia-time-saved alicia-sleep alicia-loudness alicia-loudness-gain property-list command-list pause time-pos playback-time percent-pos time-remaining playtime-remaining speed volume mute loop-playlist loop-file pid chapter chapters chapter-list transcript"
_alicia_player_socket_commands="set loadfile loadlist playlist-next playlist-prev playlist-play-index playlist-remove playlist-move playlist-clear playlist-shuffle seek stop quit quit-watch-later voice say speak get_property get_property_string set_property set_property_string add cycle observe_property observe_property_string unobserve_property enable_event disable_event client_name get_version status toggle voice-replay voice-skip"
_alicia_player_ctl_commands="play append pause resume unpause next prev previous chapter volume speed mute unmute get transcript watch follow idle list wait"

# Adds the lines on stdin that start with the current word, in any case, each as one reply.
_alicia_player_add_lines() {
    local line
    while IFS= read -r line; do
        [[ -n $line && ${line,,} == "${cur,,}"* ]] && COMPREPLY+=("$line")
    done
}

# Adds the titles on stdin with a word that starts with the current word, in any case: `light`
# offers "Nights at the lighthouse".
_alicia_player_add_titles() {
    local line word
    [[ -z $cur ]] && return
    while IFS= read -r line; do
        for word in $line; do
            if [[ ${word,,} == "${cur,,}"* ]]; then
                COMPREPLY+=("$line")
                break
            fi
        done
    done
}

_alicia_player() {
    local cur prev words cword
    if declare -F _init_completion >/dev/null; then
        # `:` and `=` stay in the word: `playlist:Dr` is one word, not `playlist`, `:`, `Dr`.
        _init_completion -n =: || return
    else
        cur=${COMP_WORDS[COMP_CWORD]}
        prev=${COMP_WORDS[COMP_CWORD - 1]}
        words=("${COMP_WORDS[@]}")
        cword=$COMP_CWORD
    fi
    COMPREPLY=()
    local commands="studio play queue script playlists playlist tracks notes download cache demo speak voice chat messages reply react ctl config subscribe unsubscribe shows refresh episodes export watch sync render help"

    case $prev in
        --device)
            _alicia_player_add_lines < <(pactl list short sinks 2>/dev/null | cut -f2)
            return ;;
        --voice-focus)
            mapfile -t COMPREPLY < <(compgen -W "pause duck mix" -- "$cur")
            return ;;
        --loudness)
            mapfile -t COMPREPLY < <(compgen -W "off -16 -19 -23" -- "$cur")
            return ;;
        --sleep)
            mapfile -t COMPREPLY < <(compgen -W "15m 30m 45m 1h end chapter" -- "$cur")
            return ;;
        --queue | --cacert | --ipc)
            mapfile -t COMPREPLY < <(compgen -f -- "$cur")
            compopt -o filenames 2>/dev/null
            return ;;
        --save | --token-file)
            mapfile -t COMPREPLY < <(compgen -f -- "$cur")
            compopt -o filenames 2>/dev/null
            return ;;
        --start | --speed | --volume | --read-ahead | --voice-at | --note-rewind | --port | --token | --voicing | --dialect | --base-url | --react | \
            --give-up-after | --stall-timeout | --rate | --max-size)
            return ;;
    esac

    # The command: the first word that is not an option or an option's value.
    local command="" action="" positional=0 i
    for ((i = 1; i < cword; i++)); do
        case ${words[i]} in
            --start | --speed | --volume | --device | --read-ahead | --voice-at | --voice-focus | --note-rewind | \
                --port | --token | --token-file | --base-url | --react | --save | --sleep | --loudness | --ipc | \
                --give-up-after | --stall-timeout | --cacert | --queue | --rate | --max-size | --voicing | --file)
                ((i++)) ;;
            -*) ;;
            *)
                if [[ -z $command ]]; then
                    command=${words[i]}
                else
                    ((positional == 0)) && action=${words[i]}
                    ((positional++))
                fi ;;
        esac
    done

    if [[ $cur == -* ]]; then
        mapfile -t COMPREPLY < <(compgen -W "$(_alicia_player_options "$command")" -- "$cur")
        return
    fi
    case $command in
        "")
            mapfile -t COMPREPLY < <(compgen -W "$commands" -- "$cur") ;;
        help)
            ((positional == 0)) && mapfile -t COMPREPLY < <(compgen -W "$commands" -- "$cur") ;;
        config)
            if ((positional == 0)); then
                mapfile -t COMPREPLY < <(compgen -W "get set" -- "$cur")
            elif ((positional == 1)); then
                mapfile -t COMPREPLY < <(compgen -W "base_url token token_file cache_max_size auto_download accessible" -- "$cur")
            fi ;;
        playlist)
            if ((positional == 0)); then
                mapfile -t COMPREPLY < <(compgen -W "create rename delete add remove move show" -- "$cur")
            elif ((positional == 1)); then
                _alicia_player_add_lines < <(_alicia_player_cache playlists)
                compopt -o filenames 2>/dev/null
            elif ((positional == 2)) && [[ $action == add ]]; then
                _alicia_player_add_lines < <(_alicia_player_cache labels)
                _alicia_player_add_titles < <(_alicia_player_cache titles)
                compopt -o filenames 2>/dev/null
            fi ;;
        ctl)
            if ((positional == 0)); then
                mapfile -t COMPREPLY < <(compgen -W "$_alicia_player_ctl_commands $_alicia_player_socket_commands" -- "$cur")
            elif ((positional == 1)) && [[ $action == @(get|set|cycle|add|get_property|get_property_string|set_property|set_property_string) ]] ||
                [[ $action == watch ]] || { ((positional == 2)) && [[ $action == observe_property* ]]; }; then
                mapfile -t COMPREPLY < <(compgen -W "$_alicia_player_properties" -- "$cur")
            fi ;;
        cache)
            ((positional == 0)) && mapfile -t COMPREPLY < <(compgen -W "clear" -- "$cur") ;;
        play | notes | voice | download)
            _alicia_player_add_lines < <(_alicia_player_cache labels)
            _alicia_player_add_titles < <(_alicia_player_cache titles)
            if [[ $command == play || $command == download ]]; then
                _alicia_player_add_lines < <(_alicia_player_cache playlists | sed 's/^/playlist:/')
            fi
            if [[ $command == play ]]; then
                local file
                while IFS= read -r file; do COMPREPLY+=("$file"); done < <(compgen -f -- "$cur")
            fi
            # The shell took `playlist:` off the word it replaces (`:` breaks words): the
            # replies lose it too.
            declare -F __ltrim_colon_completions >/dev/null && __ltrim_colon_completions "$cur"
            # Titles hold spaces: each reply is one word to the shell.
            compopt -o filenames 2>/dev/null ;;
        queue | script | subscribe)
            mapfile -t COMPREPLY < <(compgen -f -- "$cur")
            compopt -o filenames 2>/dev/null ;;
    esac
}
complete -F _alicia_player alicia-player
