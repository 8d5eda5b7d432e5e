"""An endless internet radio station, as Icecast serves one, for the tests and benchmarks of live
streams: an MP3 looped at RATE bytes a second after a second's burst, with ICY headers and, when the
client asks (Icy-MetaData: 1), a title block every METAINT bytes whose StreamTitle changes every
16,000 bytes of audio. Its first connection is cut after CUT_FIRST_AFTER bytes (0: never). Also
serves three station lists (/station.pls, /local.m3u, /hls.m3u8). Writes its port to PORT_FILE
once listening, and each stream request's headers to LOG_FILE.

usage: icy_server.py MP3 PORT_FILE LOG_FILE [RATE [CUT_FIRST_AFTER]]"""
import socket, sys, threading, time
path, port_file, log_file = sys.argv[1], sys.argv[2], sys.argv[3]
data = open(path, "rb").read()
RATE = int(sys.argv[4]) if len(sys.argv) > 4 else 8000  # bytes a second: 64 kb/s
METAINT = 4000
CUT_FIRST_AFTER = int(sys.argv[5]) if len(sys.argv) > 5 else 40000
counter = {"connections": 0, "audio": 0}
lock = threading.Lock()
def serve(c, number):
    request = b""
    while b"\r\n\r\n" not in request:
        more = c.recv(4096)
        if not more: return
        request += more
    target = request.split(b" ")[1].decode()
    port = s.getsockname()[1]
    lists = {
        "/station.pls": "[playlist]\nNumberOfEntries=1\nFile1=http://127.0.0.1:%d/stream\nTitle1=Test Radio (64k)\nLength1=-1\nVersion=2\n" % port,
        "/local.m3u": "#EXTM3U\n/etc/passwd\n",
        "/hls.m3u8": "#EXTM3U\n#EXT-X-TARGETDURATION:10\n#EXTINF:10,\nsegment0.ts\n",
    }
    if target in lists:
        body = lists[target].encode()
        c.sendall(b"HTTP/1.0 200 OK\r\nContent-Type: audio/x-scpls\r\nContent-Length: %d\r\n\r\n" % len(body) + body)
        return
    with open(log_file, "a") as log:
        log.write("connection %d\n%s\n" % (number, request.decode("latin-1")))
    icy = b"icy-metadata: 1" in request.lower()
    head = b"HTTP/1.0 200 OK\r\nContent-Type: audio/mpeg\r\nicy-name: Test Radio\r\nicy-br: 64\r\n"
    if icy: head += b"icy-metaint: %d\r\n" % METAINT
    c.sendall(head + b"\r\n")
    sent, since_meta, pos, start = 0, 0, 0, time.monotonic()
    while number > 1 or CUT_FIRST_AFTER == 0 or sent < CUT_FIRST_AFTER:
        chunk = data[pos:pos + 1000]
        pos = (pos + len(chunk)) % len(data)
        out = b""
        while chunk:
            take = METAINT - since_meta if icy else len(chunk)
            out += chunk[:take]; since_meta += len(chunk[:take]); chunk = chunk[take:]
            if icy and since_meta == METAINT:
                with lock:
                    counter["audio"] += METAINT
                    title = "Song %d" % (counter["audio"] // 16000)
                meta = ("StreamTitle='%s';StreamUrl='';" % title).encode()
                blocks = (len(meta) + 15) // 16
                out += bytes([blocks]) + meta.ljust(blocks * 16, b"\0")
                since_meta = 0
        c.sendall(out)
        sent += 1000
        ahead = sent / RATE - (time.monotonic() - start) - 1
        if ahead > 0: time.sleep(ahead)
def handle(c, number):
    try: serve(c, number)
    except OSError: pass
    finally: c.close()
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(("127.0.0.1", 0)); s.listen(8)
open(port_file + ".tmp", "w").write(str(s.getsockname()[1]))
import os; os.rename(port_file + ".tmp", port_file)
while True:
    c, _ = s.accept()
    counter["connections"] += 1
    threading.Thread(target=handle, args=(c, counter["connections"]), daemon=True).start()
