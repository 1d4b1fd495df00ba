#!/usr/bin/env python3
"""One MCP session against an installed repo-reader, for the package and image tests.

  mcp_session.py stdio -- CMD...   start CMD, speak MCP over its stdin/stdout
  mcp_session.py http URL          POST to URL, with the token in $REPO_READER_TOKEN

The session: initialize, notifications/initialized, tools/list (read_file among the tools),
tools/call read_file of README.md in the repository `shop` (its text must come back), and of
secrets/key.txt, which the example configuration excludes (it must be refused, its text never
shown). Exits 0 when every answer is right, 1 saying which was not.
"""
import json
import os
import subprocess
import sys
import urllib.request

PROTOCOL = "2025-06-18"
README_TEXT = "The web shop, packaged."
SECRET_TEXT = "never shown"


def fail(msg):
    print("mcp_session: " + msg, file=sys.stderr)
    sys.exit(1)


class Stdio:
    def __init__(self, cmd):
        self.p = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def send(self, msg):
        self.p.stdin.write(json.dumps(msg) + "\n")
        self.p.stdin.flush()
        if "id" not in msg:
            return None
        while True:
            line = self.p.stdout.readline()
            if not line:
                fail("the server closed stdout before answering %s" % msg["method"])
            answer = json.loads(line)
            if answer.get("id") == msg["id"]:
                return answer

    def close(self):
        self.p.stdin.close()
        if self.p.wait(timeout=30) != 0:
            fail("the server exited %d after stdin closed" % self.p.returncode)


class Http:
    def __init__(self, url):
        self.url = url
        self.token = os.environ.get("REPO_READER_TOKEN", "")

    def send(self, msg):
        headers = {
            "Content-Type": "application/json",
            "Accept": "application/json, text/event-stream",
            "MCP-Protocol-Version": PROTOCOL,
        }
        if self.token:
            headers["Authorization"] = "Bearer " + self.token
        req = urllib.request.Request(self.url, json.dumps(msg).encode(), headers, method="POST")
        with urllib.request.urlopen(req, timeout=30) as r:
            body = r.read().decode()
            kind = r.headers.get("Content-Type", "")
        if "id" not in msg:
            return None
        if kind.startswith("text/event-stream"):
            datas = [l[5:].strip() for l in body.splitlines() if l.startswith("data:")]
            for d in datas:
                answer = json.loads(d)
                if answer.get("id") == msg["id"]:
                    return answer
            fail("no answer to %s in the event stream" % msg["method"])
        return json.loads(body)

    def close(self):
        pass


def text_of(answer):
    result = answer.get("result") or {}
    return "".join(c.get("text", "") for c in result.get("content", []))


def main():
    if len(sys.argv) >= 4 and sys.argv[1] == "stdio" and sys.argv[2] == "--":
        peer = Stdio(sys.argv[3:])
    elif len(sys.argv) == 3 and sys.argv[1] == "http":
        peer = Http(sys.argv[2])
    else:
        fail("usage: mcp_session.py stdio -- CMD... | http URL")

    init = peer.send({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": PROTOCOL, "capabilities": {},
        "clientInfo": {"name": "package-test", "version": "1"}}})
    info = (init.get("result") or {}).get("serverInfo") or {}
    if info.get("name") != "repo-reader":
        fail("initialize: %s" % json.dumps(init)[:500])
    peer.send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    tools = peer.send({"jsonrpc": "2.0", "id": 2, "method": "tools/list"})
    names = [t["name"] for t in (tools.get("result") or {}).get("tools", [])]
    if "read_file" not in names or "list_repos" not in names:
        fail("tools/list: %s" % names)

    read = peer.send({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {
        "name": "read_file", "arguments": {"repo": "shop", "path": "README.md"}}})
    if read.get("result", {}).get("isError") or README_TEXT not in text_of(read):
        fail("read_file README.md: %s" % json.dumps(read)[:500])

    secret = peer.send({"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {
        "name": "read_file", "arguments": {"repo": "shop", "path": "secrets/key.txt"}}})
    if SECRET_TEXT in json.dumps(secret) or not (secret.get("result") or {}).get("isError"):
        fail("read_file of an excluded file was not refused: %s" % json.dumps(secret)[:500])

    peer.close()
    print("mcp_session: %s v%s answered initialize, tools/list (%d tools), read_file; the "
          "excluded file was refused" % (info["name"], info.get("version"), len(names)))


if __name__ == "__main__":
    main()
