"""A gpodder.net client for the sync tests that is not ours: a thin command line over mygpoclient
1.10 (gPodder's own API library), to read back what the player uploaded and to act as "another
device". Run it with the venv python that scripts/lib/gpodder.sh makes (ALICIA_TEST_GPODDER_PYTHON).
Each command prints one JSON document on stdout; an HTTP error exits 1 with the error on stderr.

usage: gpodder_client.py URL USER PASSWORD actions [SINCE]
           every episode action of the account (since SINCE, epoch seconds), as a JSON list of
           {podcast, episode, action, device, timestamp, started, position, total[, guid]}
       gpodder_client.py URL USER PASSWORD upload-play DEVICE PODCAST EPISODE POSITION TOTAL TIMESTAMP [GUID]
           registers DEVICE (as a client does) and uploads one play action made on it (started is
           not sent); TIMESTAMP is ISO 8601 (2026-01-02T03:04:05, UTC) or epoch seconds;
           prints the server's reply {"timestamp": N}
       gpodder_client.py URL USER PASSWORD subscriptions DEVICE
           the device's current subscription URLs, as a JSON list
       gpodder_client.py URL USER PASSWORD subscribe DEVICE FEED_URL
           adds one subscription on DEVICE; prints {"timestamp": N, "update_urls": [[old, new], ...]}"""
import datetime, json, sys
from urllib import request

from mygpoclient import api, http
from mygpoclient import json as mygpo_json


class Client(mygpo_json.JsonClient):
    """mygpoclient's JSON client with three changes, given to MygPodderClient as its client_class.

    - Credentials are sent with every request. mygpoclient sends them only in answer to a 401 whose
      WWW-Authenticate names a realm (urllib's HTTPBasicAuthHandler ignores a challenge without
      one), and gpodder-fastapi-router answers a bare `WWW-Authenticate: Basic`, so as it stands
      mygpoclient gets http.Unauthorized from that server.
    - JSON bodies say Content-Type: application/json. mygpoclient leaves urllib's default
      (application/x-www-form-urlencoded), which FastAPI refuses with 422 for a JSON body.
    - The last decoded reply is kept: mygpoclient's EpisodeAction has no guid field and drops it
      when it parses a download, so `actions` reads the guids from the very reply it parsed.
    """

    def __init__(self, username, password):
        super().__init__(username, password)
        passwords = request.HTTPPasswordMgrWithPriorAuth()
        passwords.add_password(None, url, username, password, is_authenticated=True)
        self._opener = request.build_opener(request.HTTPBasicAuthHandler(passwords),
                                            request.HTTPCookieProcessor(self._cookie_jar))
        self.last_reply = None

    @staticmethod
    def _prepare_request(method, uri, data):
        prepared = mygpo_json.JsonClient._prepare_request(method, uri, data)
        if data is not None:
            prepared.add_header("Content-Type", "application/json")
        return prepared

    def _process_response(self, response):
        self.last_reply = mygpo_json.JsonClient._process_response(response)
        return self.last_reply


class GuidAction(api.EpisodeAction):
    """mygpoclient's EpisodeAction plus the guid field of the current API (mygpoclient 1.10 has no
    guid: its upload_episode_actions sends what to_dictionary returns, so this adds it there)."""

    def __init__(self, *args, guid=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.guid = guid

    def to_dictionary(self):
        d = super().to_dictionary()
        if self.guid is not None:
            d["guid"] = self.guid
        return d


def iso8601(text):
    if text.isdigit():
        return datetime.datetime.fromtimestamp(int(text), datetime.UTC).strftime("%Y-%m-%dT%H:%M:%S")
    return text


if len(sys.argv) < 5:
    sys.exit(__doc__.split("\n\n", 1)[1])
url, user, password, command, args = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5:]
client = api.MygPodderClient(user, password, url, client_class=Client)
try:
    if command == "actions" and len(args) <= 1:
        changes = client.download_episode_actions(since=int(args[0]) if args else None)
        raw = client._client.last_reply["actions"]
        out = []
        for action, raw_action in zip(changes.actions, raw):
            d = {k: getattr(action, k) for k in
                 ("podcast", "episode", "action", "device", "timestamp", "started", "position", "total")}
            if raw_action.get("guid") is not None:
                d["guid"] = raw_action["guid"]
            out.append(d)
    elif command == "upload-play" and len(args) in (6, 7):
        device, podcast, episode, position, total, timestamp = args[:6]
        action = GuidAction(podcast, episode, "play", device=device, timestamp=iso8601(timestamp),
                            position=int(position), total=int(total), guid=args[6] if len(args) == 7 else None)
        client.update_device_settings(device)  # creates the device if new; changes nothing else
        out = {"timestamp": client.upload_episode_actions([action])}
    elif command == "subscriptions" and len(args) == 1:
        out = client.get_subscriptions(args[0])
    elif command == "subscribe" and len(args) == 2:
        result = client.update_subscriptions(args[0], [args[1]], [])
        out = {"timestamp": result.since, "update_urls": [list(pair) for pair in result.update_urls]}
    else:
        sys.exit(__doc__.split("\n\n", 1)[1])
except ValueError as error:  # mygpoclient's check of an argument (e.g. a timestamp not ISO 8601)
    sys.exit("gpodder_client: %s" % error)
except (http.Unauthorized, http.NotFound, http.BadRequest, http.UnknownResponse, api.InvalidResponse) as error:
    sys.exit("gpodder_client: %s %s" % (type(error).__name__, error))
json.dump(out, sys.stdout, indent=1)
sys.stdout.write("\n")
