# shellcheck shell=bash
# Sourced after env.sh (it uses env.sh's `log` and `die`). Provides:
#   install_gpodder_server   make (once) a Python venv at .build/gpodder-venv holding a real
#                            gpodder.net-API server (gpodder-fastapi-router, served by uvicorn on
#                            SQLite through aiosqlite) and mygpoclient, gPodder's own client library;
#                            exports ALICIA_TEST_GPODDER_PYTHON (the venv's python) for the sync
#                            tests, which run Tests/Servers/gpodder_server.py and gpodder_client.py
#                            with it.
#
# The router needs Python >= 3.12 and Debian 12's python3 is 3.11, so the venv is made from pyenv's
# 3.12 (which the machine image ships, at /root/.pyenv/versions/3.12.1), or else from any python3.12
# or python3.13 on PATH. Known limit: a fresh Debian 12 without pyenv has neither (bookworm has no
# python3.12 package), and then install_gpodder_server dies saying so.
#
# Every package is pinned (==) and installed with --no-deps, so the venv holds exactly this list
# whatever PyPI serves newer: the router 0.1.3 with what it pulls (fastapi, starlette, pydantic,
# SQLAlchemy's asyncio extra with greenlet, bcrypt, jinja2 for its dashboard, ...), uvicorn without
# extras (h11 alone), aiosqlite, and mygpoclient 1.10. `pip check` then proves the list complete.
# All are wheels (no compiler needed). Measured here: about 3 s for the venv and 8 s for the
# packages on a warm pip cache.

gpodder_venv_packages=(
    gpodder-fastapi-router==0.1.3
    fastapi==0.165.0
    starlette==1.10.0
    pydantic==2.14.4
    pydantic_core==2.50.5
    pydantic-settings==2.16.3
    python-dotenv==1.2.4
    typing_extensions==4.16.0
    typing-inspection==0.4.5
    annotated-types==0.8.0
    annotated-doc==0.0.7
    opentelemetry-api==1.45.3
    anyio==4.16.0
    idna==3.21
    python-multipart==0.0.34
    SQLAlchemy==2.1.9
    greenlet==3.5.6
    bcrypt==5.0.0
    Jinja2==3.1.6
    MarkupSafe==3.0.4
    aiosqlite==0.22.1
    uvicorn==0.55.0
    click==8.5.1
    h11==0.16.0
    mygpoclient==1.10
)

# Prints the path of a Python 3.12 or 3.13 interpreter, or nothing.
find_gpodder_python() {
    local candidate
    for candidate in "${PYENV_ROOT:-/root/.pyenv}"/versions/3.12.*/bin/python3.12 \
        "${PYENV_ROOT:-/root/.pyenv}"/versions/3.13.*/bin/python3.13; do
        if [[ -x $candidate ]]; then
            printf '%s\n' "$candidate"
            return 0
        fi
    done
    for candidate in python3.12 python3.13; do
        # pyenv's shims answer `command -v` even for a version that is not installed, so ask the
        # interpreter itself.
        if command -v "$candidate" >/dev/null 2>&1 && "$candidate" -c 'import sys; assert sys.version_info >= (3, 12)' 2>/dev/null; then
            command -v "$candidate"
            return 0
        fi
    done
}

install_gpodder_server() {
    local venv=$PWD/.build/gpodder-venv
    # The stamp is written last, and names the package list: a venv whose install was cut short,
    # or one made from an older list, is made again from scratch.
    local stamp=$venv/alicia-packages.txt
    local wanted
    wanted=$(printf '%s\n' "${gpodder_venv_packages[@]}")
    if [[ -x $venv/bin/python && -f $stamp && $(<"$stamp") == "$wanted" ]]; then
        export ALICIA_TEST_GPODDER_PYTHON=$venv/bin/python
        return 0
    fi
    local python
    python=$(find_gpodder_python)
    [[ -n $python ]] || die "the gpodder sync tests need Python 3.12 or 3.13 (gpodder-fastapi-router requires >= 3.12) and none was found: Debian 12 has only 3.11; install pyenv's 3.12 (pyenv install 3.12)"
    log "making .build/gpodder-venv with $python and installing gpodder-fastapi-router 0.1.3, uvicorn, aiosqlite and mygpoclient 1.10 from PyPI"
    rm -rf "$venv"
    mkdir -p "$PWD/.build"
    # `-m venv` needs ensurepip: a pyenv build has it; a Debian python3.x needs python3.x-venv.
    "$python" -m venv "$venv" || die "$python -m venv failed (a Debian python needs its -venv package)"
    "$venv/bin/python" -m pip install --quiet --disable-pip-version-check --no-deps "${gpodder_venv_packages[@]}" ||
        die "pip could not install the gpodder test server's packages (PyPI must be reachable)"
    "$venv/bin/python" -m pip check --disable-pip-version-check >/dev/null ||
        die "the pinned gpodder package list is incomplete: $("$venv/bin/python" -m pip check 2>&1 | head -3)"
    printf '%s\n' "$wanted" >"$stamp"
    export ALICIA_TEST_GPODDER_PYTHON=$venv/bin/python
}
