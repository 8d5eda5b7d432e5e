#!/usr/bin/env python3
"""A fake of Nextcloud's GPodder Sync app, for the sync tests' Nextcloud dialect (a seam: the
gpodder.net dialect is tested against a real server, gpodder-fastapi-router).

Usage: gpoddersync_fake.py DATA_DIR PORT_FILE USER PASSWORD [PORT]

Serves on 127.0.0.1 (PORT, or a free one, written to PORT_FILE once it listens):
  GET  /index.php/apps/gpoddersync/subscriptions?since=S      -> {"add", "remove", "timestamp"}
  POST /index.php/apps/gpoddersync/subscription_change/create  {"add", "remove"} -> {"timestamp"}
  GET  /index.php/apps/gpoddersync/episode_action?since=S     -> {"actions", "timestamp"}
  POST /index.php/apps/gpoddersync/episode_action/create      [actions] -> {"timestamp"}
as the app (3.16) does: HTTP Basic on every request (401 without it), `since` and `timestamp` in
UNIX seconds, actions filtered on their own time (`> since`), only `play` kept, one per episode
(its GUID, else its URL: the last upload wins), answered in capitals with an offset and no device. Its state is DATA_DIR/state.json, so a server stopped and started again on the same port
keeps what it was told; every request (method, path, body; never a header) is appended to
DATA_DIR/requests.log, which the tests read for secrets. Exits on SIGTERM or when its parent goes.
"""
import base64, json, os, signal, sys, threading, time
from datetime import datetime, timezone
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit, parse_qs

DATA, PORT_FILE, USER, PASSWORD = sys.argv[1:5]
PORT = int(sys.argv[5]) if len(sys.argv) > 5 else 0
STATE = os.path.join(DATA, "state.json")
LOG = os.path.join(DATA, "requests.log")
BASE = "/index.php/apps/gpoddersync/"
lock = threading.Lock()


def load():
    try:
        with open(STATE) as f:
            return json.load(f)
    except FileNotFoundError:
        return {"subscriptions": {}, "actions": []}


def shown(action):
    """An action as the app answers it: the kind in capitals, the time with an offset, missing
    numbers as -1, no device."""
    out = {k: action.get(k) for k in ("podcast", "episode", "guid")}
    out["action"] = action["action"].upper()
    out["timestamp"] = datetime.fromtimestamp(action["epoch"], timezone.utc).strftime("%Y-%m-%dT%H:%M:%S+00:00")
    for k in ("started", "position", "total"):
        out[k] = action.get(k, -1)
    return out


def save(state):
    with open(STATE + ".tmp", "w") as f:
        json.dump(state, f)
    os.replace(STATE + ".tmp", STATE)


class Handler(BaseHTTPRequestHandler):
    def log_message(self, *args):
        pass

    def reply(self, status, value):
        body = json.dumps(value).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def authorized(self):
        expected = "Basic " + base64.b64encode(f"{USER}:{PASSWORD}".encode()).decode()
        return self.headers.get("Authorization") == expected

    def handle_any(self, method):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        with lock, open(LOG, "a") as log:
            log.write(json.dumps({"method": method, "path": self.path, "body": body.decode("utf-8", "replace")}) + "\n")
        if not self.authorized():
            return self.reply(401, {"message": "unauthorized"})
        url = urlsplit(self.path)
        since = int(parse_qs(url.query).get("since", ["0"])[0])
        now = int(time.time())
        with lock:
            state = load()
            if method == "GET" and url.path == BASE + "subscriptions":
                subs = [(u, s) for u, s in state["subscriptions"].items() if s["at"] >= since]
                return self.reply(200, {"add": [u for u, s in subs if s["on"]], "remove": [u for u, s in subs if not s["on"]],
                                        "timestamp": now})
            if method == "POST" and url.path == BASE + "subscription_change/create":
                change = json.loads(body)
                for u in change.get("add", []):
                    state["subscriptions"][u] = {"on": True, "at": now}
                for u in change.get("remove", []):
                    state["subscriptions"][u] = {"on": False, "at": now}
                save(state)
                return self.reply(200, {"timestamp": now})
            if method == "GET" and url.path == BASE + "episode_action":
                return self.reply(200, {"actions": [shown(a) for a in state["actions"] if a["epoch"] > since], "timestamp": now})
            if method == "POST" and url.path == BASE + "episode_action/create":
                for action in json.loads(body):
                    if action["action"].lower() != "play":
                        continue
                    identity = action.get("guid") or action["episode"]
                    state["actions"] = [a for a in state["actions"] if (a.get("guid") or a["episode"]) != identity]
                    epoch = int(datetime.fromisoformat(action["timestamp"].replace("Z", "+00:00")).replace(tzinfo=timezone.utc).timestamp())
                    state["actions"].append(dict(action, epoch=epoch))
                save(state)
                return self.reply(200, {"timestamp": now})
        self.reply(404, {"message": "no such route"})

    def do_GET(self):
        self.handle_any("GET")

    def do_POST(self):
        self.handle_any("POST")


server = ThreadingHTTPServer(("127.0.0.1", PORT), Handler)
signal.signal(signal.SIGTERM, lambda *_: os._exit(0))
parent = os.getppid()


def orphaned():
    # A test that died leaves no server behind: it goes when its parent does.
    while os.getppid() == parent:
        time.sleep(0.5)
    os._exit(0)


threading.Thread(target=orphaned, daemon=True).start()
with open(PORT_FILE + ".tmp", "w") as f:
    f.write(str(server.server_address[1]))
os.replace(PORT_FILE + ".tmp", PORT_FILE)
server.serve_forever()
