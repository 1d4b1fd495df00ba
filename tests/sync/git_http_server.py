#!/usr/bin/env python3
"""A git smart-HTTP server on loopback for the sync's tests: git's own http-backend behind a
small HTTP server. It can require a token, redirect requests under /moved/ (to another address,
or to the same path without /moved on itself: `--redirect self`), answer
with an error message that repeats the request's Authorization header, and it records:

  RECORD/requests.jsonl  one line a request: method, path, whether it carried the token, and
                         any process whose command line held the token at that moment; for an
                         upload-pack request, the ids it wants and how many it says it has
  RECORD/objects.txt     the id of every object in every pack it sent, one a line

Packs are recorded through uploadpack.packObjectsHook (in the backend's own global
configuration), which runs pack-objects without --thin so that each pack holds exactly the
objects sent, and indexes a copy.

  git_http_server.py --root DIR --record DIR [--token T] [--redirect URL|self] [--echo-auth]
                     [--no-pack-record]

--no-pack-record (for bench/mirrors.py) leaves packs unrecorded: pack-objects runs as git runs
it, so that timing the sync measures git and the sync, not the recording.

prints the port it listens on, then serves until killed.
"""
import argparse
import base64
import gzip
import http.server
import json
import os
import re
import subprocess
import sys
import tempfile
import threading

LOCK = threading.Lock()


def pack_hook(record, argv):
    """uploadpack.packObjectsHook: run pack-objects (without --thin), tee the pack, index it."""
    argv = [a for a in argv if a != "--thin"]
    proc = subprocess.Popen(argv, stdin=sys.stdin.buffer, stdout=subprocess.PIPE)
    chunks = []
    while True:
        chunk = proc.stdout.read(65536)
        if not chunk:
            break
        chunks.append(chunk)
        sys.stdout.buffer.write(chunk)
    sys.stdout.buffer.flush()
    rc = proc.wait()
    pack = b"".join(chunks)
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "sent.pack")
        with open(path, "wb") as f:
            f.write(pack)
        subprocess.run(["git", "index-pack", path], check=True, capture_output=True)
        shown = subprocess.run(["git", "show-index"], stdin=open(path[:-5] + ".idx", "rb"),
                               check=True, capture_output=True, text=True).stdout
    with LOCK, open(os.path.join(record, "objects.txt"), "a") as f:
        f.write("# pack: %s\n" % " ".join(argv[2:]))
        for line in shown.splitlines():
            f.write(line.split()[1] + "\n")
    return rc


def token_in_command_lines(token):
    """Command lines of every process of this machine that hold the token, as it is or in the
    base64 of an Authorization header."""
    found = []
    needles = [token.encode()] + [
        base64.b64encode((user + ":" + token).encode())
        for user in ("x-access-token", "oauth2", "x-token-auth")]
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open("/proc/%s/cmdline" % pid, "rb") as f:
                cmdline = f.read()
        except OSError:
            continue
        if any(needle in cmdline for needle in needles):
            found.append(cmdline.replace(b"\0", b" ").decode(errors="replace"))
    return found


def carries_token(header, token):
    if not token or not header:
        return False
    if header == "Bearer " + token:
        return True
    if header.startswith("Basic "):
        try:
            user_pass = base64.b64decode(header[6:]).decode()
        except Exception:
            return False
        return user_pass.partition(":")[2] == token
    return False


def make_handler(args, config_file):
    class Handler(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def log_message(self, *a):
            pass

        def record(self, auth_ok, data=b""):
            entry = {
                "method": self.command,
                "path": self.path,
                "token": carries_token(self.headers.get("Authorization"), args.token),
                "authorization": bool(self.headers.get("Authorization")),
            }
            if self.command == "POST" and self.path.endswith("/git-upload-pack"):
                # What the client asked for and said it had (pkt-lines "want <id>", "have <id>").
                if self.headers.get("Content-Encoding", "").lower() == "gzip":
                    data = gzip.decompress(data)
                entry["wants"] = re.findall(rb"want ([0-9a-f]{40})", data)
                entry["wants"] = [w.decode() for w in entry["wants"]]
                entry["haves"] = len(re.findall(rb"have [0-9a-f]{40}", data))
            if args.token:
                entry["cmdline_with_token"] = [
                    c for c in token_in_command_lines(args.token) if "git_http_server" not in c
                ]
            with LOCK, open(os.path.join(args.record, "requests.jsonl"), "a") as f:
                f.write(json.dumps(entry) + "\n")

        def body(self):
            if self.headers.get("Transfer-Encoding", "").lower() == "chunked":
                data = b""
                while True:
                    size = int(self.rfile.readline().strip().split(b";")[0], 16)
                    if size == 0:
                        self.rfile.readline()
                        return data
                    data += self.rfile.read(size)
                    self.rfile.readline()
            return self.rfile.read(int(self.headers.get("Content-Length") or 0))

        def reply(self, status, headers, data):
            self.send_response(status)
            for k, v in headers:
                self.send_header(k, v)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def serve(self):
            data = self.body() if self.command == "POST" else b""
            auth_ok = not args.token or carries_token(self.headers.get("Authorization"), args.token)
            self.record(auth_ok, data)
            if args.redirect and self.path.startswith("/moved/"):
                target = args.redirect
                if target == "self":
                    target = "http://127.0.0.1:%d" % self.server.server_address[1]
                return self.reply(302, [("Location", target + self.path[len("/moved"):])], b"")
            if not auth_ok:
                return self.reply(401, [("WWW-Authenticate", 'Basic realm="test"')], b"")
            path, _, query = self.path.partition("?")
            if args.echo_auth:
                # A host whose error repeats what it was sent.
                msg = "ERR refused: " + (self.headers.get("Authorization") or "") + " " + (
                    args.token or "")
                pkt = lambda s: ("%04x" % (len(s) + 4) + s).encode()
                payload = pkt("# service=git-upload-pack\n") + b"0000" + pkt(msg + "\n")
                return self.reply(
                    200, [("Content-Type", "application/x-git-upload-pack-advertisement")],
                    payload)
            env = {
                "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
                "HOME": args.record,
                "GIT_CONFIG_NOSYSTEM": "1",
                "GIT_CONFIG_GLOBAL": config_file,
                "GIT_PROJECT_ROOT": args.root,
                "GIT_HTTP_EXPORT_ALL": "1",
                "PATH_INFO": path,
                "QUERY_STRING": query,
                "REQUEST_METHOD": self.command,
                "CONTENT_TYPE": self.headers.get("Content-Type", ""),
                "CONTENT_LENGTH": str(len(data)),
                "REMOTE_ADDR": "127.0.0.1",
            }
            if self.headers.get("Git-Protocol"):
                env["GIT_PROTOCOL"] = self.headers["Git-Protocol"]
            if self.headers.get("Content-Encoding"):
                env["HTTP_CONTENT_ENCODING"] = self.headers["Content-Encoding"]
            out = subprocess.run(["git", "http-backend"], input=data, env=env,
                                 capture_output=True).stdout
            head, _, rest = out.partition(b"\r\n\r\n")
            if not rest and b"\n\n" in out:
                head, _, rest = out.partition(b"\n\n")
            status, headers = 200, []
            for line in head.decode(errors="replace").splitlines():
                name, _, value = line.partition(":")
                if name.lower() == "status":
                    status = int(value.strip().split()[0])
                elif name:
                    headers.append((name, value.strip()))
            self.reply(status, headers, rest)

        do_GET = serve
        do_POST = serve

    return Handler


def main():
    if len(sys.argv) > 2 and sys.argv[1] == "--pack-hook":
        sys.exit(pack_hook(sys.argv[2], sys.argv[3:]))
    p = argparse.ArgumentParser()
    p.add_argument("--root", required=True)
    p.add_argument("--record", required=True)
    p.add_argument("--token")
    p.add_argument("--redirect")
    p.add_argument("--echo-auth", action="store_true")
    p.add_argument("--no-pack-record", action="store_true")
    args = p.parse_args()
    config_file = os.path.join(args.record, "backend.gitconfig")
    with open(config_file, "w") as f:
        f.write("[uploadpack]\n\tallowFilter = true\n\tallowAnySHA1InWant = true\n")
        if not args.no_pack_record:
            f.write("\tpackObjectsHook = %s %s --pack-hook %s\n" %
                    (sys.executable, os.path.abspath(__file__), args.record))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), make_handler(args, config_file))
    print(server.server_address[1], flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
