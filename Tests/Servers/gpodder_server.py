"""A real gpodder.net-API server for the sync tests: gpodder-fastapi-router 0.1.3 (a third-party
implementation of the mygpo API) in a FastAPI app, served by uvicorn on 127.0.0.1 with its SQLite
database at DATA_DIR/gpodder.db (tables gpodder_users, gpodder_devices, gpodder_subscriptions,
gpodder_episode_actions, ...). Run it with the venv python that scripts/lib/gpodder.sh makes
(ALICIA_TEST_GPODDER_PYTHON).

It makes (or, on a second run over the same DATA_DIR, resets the password of) the account USER
through the package's own user service, listens on a free port, and writes that port to PORT_FILE
(through a temp file and a rename) once the server accepts connections. It exits when its parent
goes (a harness that died) or on SIGTERM/SIGINT. Everything it
says, uvicorn's access log included, goes to DATA_DIR/server.log; the raw body and headers of every
episode-action upload go to DATA_DIR/episode-uploads.jsonl (the router's own debug hook), so a test
can check what the player sent byte for byte.

usage: gpodder_server.py DATA_DIR PORT_FILE USER PASSWORD [PORT]"""
import asyncio, os, socket, sys, threading, time

if len(sys.argv) not in (5, 6):
    sys.exit(__doc__.rsplit("\n", 1)[-1])
data_dir, port_file, user, password = sys.argv[1:5]
# A port to come back on (a test that stops the server and starts it again); else a free one.
wanted_port = int(sys.argv[5]) if len(sys.argv) == 6 else 0
data_dir, port_file = os.path.abspath(data_dir), os.path.abspath(port_file)
os.makedirs(data_dir, exist_ok=True)
# From here on, all output (tracebacks too) goes to the log.
log = open(os.path.join(data_dir, "server.log"), "a", buffering=1)
os.dup2(log.fileno(), 1)
os.dup2(log.fileno(), 2)
# The router reads this at each upload (routers/episodes.py).
os.environ["GPODDER_DEBUG_ACTIONS_FILE"] = os.path.join(data_dir, "episode-uploads.jsonl")
# GPodderConfig also reads GPODDER_* variables and a .env in the working directory: run where
# neither can come from.
for name in [n for n in os.environ if n.startswith("GPODDER_") and n != "GPODDER_DEBUG_ACTIONS_FILE"]:
    del os.environ[name]
os.chdir(data_dir)

import uvicorn
from fastapi import FastAPI
from gpodder_router import Database, GPodderConfig, attach
from gpodder_router.exceptions import ConflictError
from gpodder_router.services import users as users_service

started = time.monotonic()
listener = socket.socket()
listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
listener.bind(("127.0.0.1", wanted_port))
port = listener.getsockname()[1]
config = GPodderConfig(
    database_url="sqlite+aiosqlite:///" + os.path.join(data_dir, "gpodder.db"),
    base_url="http://127.0.0.1:%d" % port,
    # The server authenticates every request (Basic auth is checked with bcrypt each time): 4 rounds
    # cost ~1 ms where the default 12 cost ~200 ms per request.
    bcrypt_rounds=4,
    # Accounts come only from here, as on gpodder.net (no self-registration), and no web dashboard.
    allow_registration=False,
    enable_dashboard=False,
)


async def make_account():
    database = Database(config.database_url)
    await database.create_all()
    try:
        async with database.session() as session:
            try:
                await users_service.create_user(session, username=user, password=password, bcrypt_rounds=4)
            except ConflictError:
                account = await users_service.get_user(session, user)
                await users_service.set_password(session, account, password, bcrypt_rounds=4)
    finally:
        await database.dispose()


async def main():
    await make_account()
    app = FastAPI()
    attach(app, config=config)
    server = uvicorn.Server(uvicorn.Config(app, log_level="info", timeout_graceful_shutdown=2))

    parent = os.getppid()

    def watch_parent():
        # The test harness starts children with stdin from /dev/null: a server goes when its
        # parent (the test run) does, so a test that died leaves none behind.
        while os.getppid() == parent:
            time.sleep(0.5)
        print("gpodder_server: its parent is gone, stopping", flush=True)
        server.should_exit = True  # uvicorn checks it every 0.1 s

    threading.Thread(target=watch_parent, daemon=True).start()
    serving = asyncio.create_task(server.serve(sockets=[listener]))
    while not server.started:
        if serving.done():
            return await serving  # failed to start: its exception is in the log
        await asyncio.sleep(0.02)
    # The listening socket is up; prove it with a connection before telling anyone (unless told
    # to stop meanwhile: then uvicorn may have closed it already).
    try:
        _, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.close()
    except OSError:
        if not server.should_exit:
            raise
    if server.should_exit:
        return await serving
    with open(port_file + ".tmp", "w") as f:
        f.write("%d\n" % port)
    os.rename(port_file + ".tmp", port_file)
    print("gpodder_server: ready on 127.0.0.1:%d after %.2f s" % (port, time.monotonic() - started), flush=True)
    await serving


asyncio.run(main())
