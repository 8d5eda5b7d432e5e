# shellcheck shell=bash
# Sourced after env.sh (it uses env.sh's `log` and `die`). Provides:
#   pipewire_packages   what start_pipewire needs installed (pactl comes with audio_packages)
#   start_pipewire      start a private, headless PipeWire sound server (pipewire, wireplumber,
#                       pipewire-pulse) as the PulseAudio server the tests talk to; exports
#                       PULSE_SERVER (the caller's EXIT trap calls stop_pipewire)
#   stop_pipewire       stop it and remove its temp dir (idempotent)
#
# Everything lives in one temp dir: the configuration files, the runtime dir with PipeWire's socket
# (pipewire-0), pipewire-pulse's socket (native), WirePlumber's state and the three logs. No systemd
# user session and no D-Bus: support.dbus is off in every daemon, WirePlumber runs without its
# ALSA, bluez, v4l2 and libcamera monitors and without the flatpak portal, and
# DBUS_SESSION_BUS_ADDRESS is unset for the daemons. The graph is driven by PipeWire's Dummy-Driver
# (a system-clock timer), so sinks play in real time with no sound card.
#
# Differences from PulseAudio a test harness meets (pipewire-pulse 0.3.65, WirePlumber 0.4.13):
# - module-pipe-sink loaded at runtime works and is bit-exact for s16le 48 kHz stereo, but an idle
#   one is suspended: its FIFO gets nothing (not real-time silence) while no stream plays, unless it
#   is loaded with sink_properties=node.always-process=true. use_system_clock_for_timing is
#   accepted and ignored. When the module made the FIFO itself it removes it on unload.
# - Module indices are 536870912 (0x20000000) and up, and a freed index is reused by the next
#   load-module: retrying an unload that had in fact succeeded can unload another sink.
#   Unloading a gone index fails with "No such entity", as PulseAudio does.
# - Restart pipewire-pulse alone if need be (a new one answers in ~0.1 s, the default sink is kept
#   in WirePlumber's metadata; pipe sinks for it go in its config as pulse.cmd load-module lines),
#   never WirePlumber alone: after that, streams on alicia_null were never linked (30 s timeout).
# - WirePlumber's restore-stream (remembered stream volume and target per application name) is
#   turned off below: with it, a volume set on one test's stream came back on the next one's.

pipewire_packages=(pipewire pipewire-pulse wireplumber)

pipewire_dir=""
pipewire_pids=()
pipewire_saved_pulse_server=""

stop_pipewire() {
    local index pid
    # pipewire-pulse first (its streams and modules are its own), then WirePlumber, then PipeWire.
    for ((index = ${#pipewire_pids[@]} - 1; index >= 0; index--)); do
        pid=${pipewire_pids[index]}
        stop_process "$pid"
        wait "$pid" 2>/dev/null || true
    done
    pipewire_pids=()
    if [[ -n $pipewire_dir ]]; then
        rm -rf "$pipewire_dir"
        if [[ ${PULSE_SERVER:-} == "unix:$pipewire_dir/pulse/native" ]]; then
            if [[ -n $pipewire_saved_pulse_server ]]; then
                export PULSE_SERVER="$pipewire_saved_pulse_server"
            else
                unset PULSE_SERVER
            fi
        fi
        pipewire_dir=""
    fi
}

# Writes the three daemons' configuration files into $pipewire_dir.
write_pipewire_config() {
    local dir=$pipewire_dir
    # The SPA plugins every one of the three daemons loads.
    local pipewire_spa_libs='context.spa-libs = {
    audio.convert.* = audioconvert/libspa-audioconvert
    support.*       = support/libspa-support
}'
    mkdir -p "$dir/config/wireplumber/main.lua.d"
    # The PipeWire daemon: the stock pipewire.conf without real-time scheduling (as PulseAudio runs
    # with --realtime=no), the portal, X11 bell and profiler modules and the device SPA plugins.
    cat >"$dir/pipewire.conf" <<EOF
context.properties = {
    core.daemon = true
    core.name = pipewire-0
    link.max-buffers = 16
    default.clock.rate = 48000
    default.clock.allowed-rates = [ 48000 ]
    default.clock.min-quantum = 16
    support.dbus = false
    log.level = 2
    vm.overrides = {
        default.clock.min-quantum = 1024
    }
}
$pipewire_spa_libs
context.modules = [
    { name = libpipewire-module-protocol-native }
    { name = libpipewire-module-metadata }
    { name = libpipewire-module-spa-device-factory }
    { name = libpipewire-module-spa-node-factory }
    { name = libpipewire-module-client-node }
    { name = libpipewire-module-client-device }
    { name = libpipewire-module-access }
    { name = libpipewire-module-adapter }
    { name = libpipewire-module-link-factory }
    { name = libpipewire-module-session-manager }
]
context.objects = [
    { factory = spa-node-factory
        args = {
            factory.name    = support.node.driver
            node.name       = Dummy-Driver
            node.group      = pipewire.dummy
            priority.driver = 20000
        }
    }
    { factory = spa-node-factory
        args = {
            factory.name    = support.node.driver
            node.name       = Freewheel-Driver
            priority.driver = 19000
            node.group      = pipewire.freewheel
            node.freewheel  = true
        }
    }
]
EOF
    # pipewire-pulse: the stock file without module-rt and module-always-sink, its socket in the dir.
    cat >"$dir/pipewire-pulse.conf" <<EOF
context.properties = {
    support.dbus = false
    log.level = 2
}
$pipewire_spa_libs
context.modules = [
    { name = libpipewire-module-protocol-native }
    { name = libpipewire-module-client-node }
    { name = libpipewire-module-adapter }
    { name = libpipewire-module-metadata }
    { name = libpipewire-module-protocol-pulse
        args = {
            server.address = [ "unix:$dir/pulse/native" ]
            vm.overrides = {
                pulse.min.quantum = 1024/48000
            }
        }
    }
]
EOF
    # WirePlumber reads wireplumber.conf and main.lua.d/ from XDG_CONFIG_HOME/wireplumber first;
    # the other main.lua.d/ and policy.lua.d/ fragments still come from /usr/share/wireplumber.
    # (WIREPLUMBER_CONFIG_DIR would make it read nothing else.) No bluetooth.lua component.
    cat >"$dir/config/wireplumber/wireplumber.conf" <<EOF
context.properties = {
    log.level = 2
    wireplumber.script-engine = lua-scripting
    support.dbus = false
}
$pipewire_spa_libs
context.modules = [
    { name = libpipewire-module-protocol-native }
    { name = libpipewire-module-client-node }
    { name = libpipewire-module-client-device }
    { name = libpipewire-module-adapter }
    { name = libpipewire-module-metadata }
    { name = libpipewire-module-session-manager }
]
wireplumber.components = [
    { name = libwireplumber-module-lua-scripting, type = module }
    { name = main.lua, type = config/lua }
    { name = policy.lua, type = config/lua }
]
EOF
    # Runs after the stock 50-*-config.lua files, before 90-enable-all.lua.
    cat >"$dir/config/wireplumber/main.lua.d/60-alicia-headless.lua" <<'EOF'
alsa_monitor.enabled = false
v4l2_monitor.enabled = false
libcamera_monitor.enabled = false
default_access.properties["enable-flatpak-portal"] = false
stream_defaults.enabled = false
EOF
}

# The caller stops it (stop_pipewire in its EXIT trap): this sets no trap of its own.
start_pipewire() {
    command -v pipewire >/dev/null && command -v wireplumber >/dev/null &&
        command -v pipewire-pulse >/dev/null && command -v pactl >/dev/null ||
        die "PipeWire is not installed (${pipewire_packages[*]} and pulseaudio-utils)"
    stop_pipewire
    pipewire_dir=$(mktemp -d /tmp/alicia-pipewire.XXXXXX)
    mkdir -m 700 "$pipewire_dir/runtime" "$pipewire_dir/home" "$pipewire_dir/config" \
        "$pipewire_dir/state" "$pipewire_dir/pulse"
    write_pipewire_config
    log "starting PipeWire in $pipewire_dir"
    local dir=$pipewire_dir
    local daemon_env=(env -u DBUS_SESSION_BUS_ADDRESS -u WIREPLUMBER_CONFIG_DIR -u PIPEWIRE_CONFIG_DIR
        -u PIPEWIRE_REMOTE -u PIPEWIRE_CORE -u PULSE_SERVER -u PULSE_RUNTIME_PATH
        HOME="$dir/home" XDG_RUNTIME_DIR="$dir/runtime" PIPEWIRE_RUNTIME_DIR="$dir/runtime"
        XDG_CONFIG_HOME="$dir/config" XDG_STATE_HOME="$dir/state")
    "${daemon_env[@]}" pipewire -c "$dir/pipewire.conf" </dev/null >"$dir/pipewire.log" 2>&1 &
    pipewire_pids+=($!)

    # One budget of 10 s in 0.1 s steps for the whole start (pipewire_wait counts it down).
    local ready="" started=$EPOCHREALTIME
    pipewire_steps=100
    # WirePlumber and pipewire-pulse need PipeWire's socket to be there when they start.
    if pipewire_wait test -S "$dir/runtime/pipewire-0"; then
        "${daemon_env[@]}" wireplumber </dev/null >"$dir/wireplumber.log" 2>&1 &
        pipewire_pids+=($!)
        "${daemon_env[@]}" pipewire-pulse -c "$dir/pipewire-pulse.conf" </dev/null >"$dir/pipewire-pulse.log" 2>&1 &
        pipewire_pids+=($!)
        pipewire_saved_pulse_server=${PULSE_SERVER:-}
        export PULSE_SERVER="unix:$dir/pulse/native"
        # The default sink is set in WirePlumber's metadata: pipewire-pulse reports it as
        # alicia_null only once WirePlumber is up and linking streams.
        if pipewire_wait pactl info >/dev/null 2>&1 &&
            pactl load-module module-null-sink sink_name=alicia_null >/dev/null &&
            pipewire_wait pipewire_default_sink_is_null; then
            ready=1
        fi
    fi
    if [[ -z $ready ]]; then
        tail -n 20 "$dir"/*.log >&2 2>/dev/null || true
        die "PipeWire did not come up at unix:$dir/pulse/native"
    fi
    local elapsed_ms=$(((${EPOCHREALTIME/./} - ${started/./}) / 1000))
    log "PipeWire ready at $PULSE_SERVER in $elapsed_ms ms (pids ${pipewire_pids[*]})"
}

# pipewire_wait COMMAND...: true once COMMAND succeeds, trying every 0.1 s while pipewire_steps
# lasts; false when it runs out or a daemon has died.
pipewire_steps=0
pipewire_wait() {
    local pid
    while ((pipewire_steps > 0)); do
        pipewire_steps=$((pipewire_steps - 1))
        "$@" && return 0
        for pid in "${pipewire_pids[@]}"; do
            kill -0 "$pid" 2>/dev/null || return 1
        done
        sleep 0.1
    done
    return 1
}

pipewire_default_sink_is_null() {
    pactl set-default-sink alicia_null >/dev/null 2>&1 &&
        [[ $(pactl get-default-sink 2>/dev/null) == alicia_null ]]
}
