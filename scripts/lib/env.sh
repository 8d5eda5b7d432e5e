# shellcheck shell=bash
# Sourced by scripts/test, scripts/demo and bench/run. Provides:
#   install_packages PACKAGE...  install what is missing (quietly; package scripts may not start services)
#   ensure_pulseaudio            make sure a PulseAudio server answers, starting a private one if none
#                                does (ALICIA_OWN_PULSE=1: always a private one); stopped on exit
# Set `log_name` before sourcing to prefix messages.

log() { printf '%s: %s\n' "${log_name:-alicia}" "$*" >&2; }
die() { log "error: $*"; exit 1; }

if ! command -v swift >/dev/null 2>&1 && [[ -x /opt/swift/usr/bin/swift ]]; then
    export PATH="$PATH:/opt/swift/usr/bin"
fi

# What building needs: pkg-config and the -dev packages of the system-library targets.
build_packages=(pkg-config libcurl4-openssl-dev libsndfile1-dev libmpg123-dev libavformat-dev libavcodec-dev libfaad-dev libpulse-dev libmicrohttpd-dev libcjson-dev libsoxr-dev libsystemd-dev libutf8proc-dev libebur128-dev libxml2-dev libsqlite3-dev libogg-dev libflac-dev)
# What playing needs: a PulseAudio server and pactl.
audio_packages=(pulseaudio pulseaudio-utils)

install_packages() {
    local missing=() package
    for package in "$@"; do
        if ! dpkg-query -W -f='${db:Status-Abbrev}' "$package" 2>/dev/null | grep -q '^ii'; then
            missing+=("$package")
        fi
    done
    ((${#missing[@]})) || return 0
    log "installing ${missing[*]}"
    ((EUID == 0)) || die "missing packages (${missing[*]}) and not root: install them with apt-get"
    local apt_log policy_created="" status=0
    apt_log=$(mktemp /tmp/alicia-apt.XXXXXX)
    # Keep package scripts from starting services (nginx's postinst would start one on port 80 and
    # fail the install where that cannot work), unless a policy is already in place.
    if [[ ! -e /usr/sbin/policy-rc.d ]]; then
        printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d
        chmod 755 /usr/sbin/policy-rc.d
        policy_created=1
    fi
    {
        DEBIAN_FRONTEND=noninteractive apt-get update -q &&
            DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
    } >"$apt_log" 2>&1 || status=$?
    if [[ -n $policy_created ]]; then rm -f /usr/sbin/policy-rc.d; fi
    if ((status != 0)); then
        cat "$apt_log" >&2
        rm -f "$apt_log"
        die "apt-get failed (status $status) installing ${missing[*]}"
    fi
    rm -f "$apt_log"
}

pulse_dir=""
pulse_pid=""
# stop_process PID: TERM, then up to 5 s for it to go, then KILL.
stop_process() {
    kill "$1" 2>/dev/null || return 0
    for _ in $(seq 50); do
        kill -0 "$1" 2>/dev/null || break
        sleep 0.1
    done
    kill -9 "$1" 2>/dev/null || true
}

stop_pulse() {
    if [[ -n $pulse_pid ]]; then stop_process "$pulse_pid"; fi
    if [[ -n $pulse_dir ]]; then
        rm -rf "$pulse_dir"
    fi
}

ensure_pulseaudio() {
    trap stop_pulse EXIT
    trap 'exit 130' INT
    trap 'exit 143' TERM
    if [[ ${ALICIA_OWN_PULSE:-} != 1 ]] && pactl info >/dev/null 2>&1; then
        return 0
    fi
    pulse_dir=$(mktemp -d /tmp/alicia-pulse.XXXXXX)
    mkdir -m 700 "$pulse_dir/runtime" "$pulse_dir/home"
    # PulseAudio limits itself to 256 open files by default; every pipe sink costs it about five
    # (the FIFO and its thread's eventfds), and a parallel test run holds dozens of capture sinks
    # at once: past the limit, loading one fails ("Module initialization failed"). Its own config
    # file (HOME is the temp dir) raises the limit.
    mkdir -p "$pulse_dir/home/.config/pulse"
    printf 'rlimit-nofile = 4096\n' >"$pulse_dir/home/.config/pulse/daemon.conf"
    log "starting PulseAudio in $pulse_dir"
    # -n: no default.pa, only the modules named here (as root, the default script would fail).
    # HOME and XDG_RUNTIME_DIR point into the temp dir so it neither meets nor disturbs another
    # daemon's pid file, cookie or socket; --use-pid-file=no for the same reason.
    HOME="$pulse_dir/home" XDG_RUNTIME_DIR="$pulse_dir/runtime" pulseaudio \
        -n \
        --daemonize=no \
        --use-pid-file=no \
        --system=no \
        --exit-idle-time=-1 \
        --disallow-exit \
        --realtime=no \
        --high-priority=no \
        --log-target="file:$pulse_dir/pulseaudio.log" \
        -L "module-native-protocol-unix auth-anonymous=1 socket=$pulse_dir/native" \
        -L "module-null-sink sink_name=alicia_null" \
        </dev/null >/dev/null 2>&1 &
    pulse_pid=$!
    export PULSE_SERVER="unix:$pulse_dir/native"
    local ready=""
    for _ in $(seq 50); do
        if pactl info >/dev/null 2>&1; then
            ready=1
            break
        fi
        kill -0 "$pulse_pid" 2>/dev/null || break
        sleep 0.1
    done
    if [[ -z $ready ]]; then
        cat "$pulse_dir/pulseaudio.log" >&2 2>/dev/null || true
        die "PulseAudio did not come up at $PULSE_SERVER"
    fi
    pactl set-default-sink alicia_null
    log "PulseAudio ready at $PULSE_SERVER (pid $pulse_pid)"
}
