#!/usr/bin/env python3
"""Slow, silent and idle connections against one repo-reader over HTTP, on loopback: opens
--each connections of three kinds (a request head sent one byte a second, nothing sent at all,
one request and then idle on the kept-alive connection), then times --calls read_file calls on a
kept-alive connection of its own while they stay open, and reads the server's memory
(docs/performance.md, "Slow clients").

    bench/http_front_attack.py                      # 1,000 of each kind, 1,000 calls
    bench/http_front_attack.py --each 300 --calls 300
    bench/http_front_attack.py --binary build/repo-reader

The same calls are first timed with no other connection open, for comparison. The attack
connections come from 127.0.0.2-4, the calls from 127.0.0.1."""
import argparse
import os
import re
import resource
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def log(msg):
    print("http_front_attack: " + msg, file=sys.stderr, flush=True)


def rss_mb(pid):
    with open("/proc/%d/status" % pid) as f:
        status = f.read()
    rss = int(re.search(r"VmRSS:\s+(\d+) kB", status).group(1)) / 1024
    hwm = int(re.search(r"VmHWM:\s+(\d+) kB", status).group(1)) / 1024
    threads = int(re.search(r"Threads:\s+(\d+)", status).group(1))
    return rss, hwm, threads


def connect(port, source):
    s = socket.socket()
    s.bind((source, 0))
    s.connect(("127.0.0.1", port))
    return s


def call_request(port, i):
    body = ('{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"read_file",'
            '"arguments":{"repo":"shop","path":"README.md"},"_meta":{'
            '"io.modelcontextprotocol/protocolVersion":"2026-07-28",'
            '"io.modelcontextprotocol/clientCapabilities":{}}}}' % i)
    return ("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nContent-Type: application/json\r\n"
            "Accept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2026-07-28\r\n"
            "Mcp-Method: tools/call\r\nMcp-Name: read_file\r\nContent-Length: %d\r\n\r\n%s"
            % (port, len(body), body)).encode()


def read_response(s):
    data = b""
    while b"\r\n\r\n" not in data:
        chunk = s.recv(65536)
        if not chunk:
            raise RuntimeError("connection closed")
        data += chunk
    head, _, rest = data.partition(b"\r\n\r\n")
    length = int(re.search(rb"Content-Length: (\d+)", head).group(1))
    while len(rest) < length:
        chunk = s.recv(65536)
        if not chunk:
            raise RuntimeError("connection closed")
        rest += chunk
    return int(head[9:12]), rest


def time_calls(port, n):
    """Calls on one kept-alive connection; a call not answered within 5 s is an error, and the
    next goes on a new connection."""
    s = None
    ms, errors = [], 0
    for i in range(n):
        t = time.perf_counter()
        try:
            if s is None:
                s = connect(port, "127.0.0.1")
                s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
                s.settimeout(5)
            s.sendall(call_request(port, i))
            status, body = read_response(s)
            ok = status == 200 and b"# Shop" in body
        except (OSError, RuntimeError):
            ok = False
            if s:
                s.close()
            s = None
        ms.append((time.perf_counter() - t) * 1000)
        if not ok:
            errors += 1
            if errors >= 5:
                break  # the server does not answer: no point in waiting 5 s more each time
    if s:
        s.close()
    ms.sort()
    return {"p50": ms[len(ms) // 2], "p99": ms[max(int(len(ms) * 0.99) - 1, 0)], "max": ms[-1],
            "errors": errors if len(ms) == n else "%d (stopped after %d of %d)" % (errors, len(ms), n)}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", default=os.path.join(ROOT, "build-bench", "repo-reader"))
    ap.add_argument("--each", type=int, default=1000)
    ap.add_argument("--calls", type=int, default=1000)
    ap.add_argument("--plain-config", action="store_true",
                    help="an http: section with only max_connections: 128 (for a build from "
                         "before the front: its default then)")
    args = ap.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, 3 * args.each + 1024), hard))

    tmp = tempfile.mkdtemp(prefix="rr-front-attack-")
    repo = os.path.join(tmp, "shop")
    subprocess.run(["git", "init", "-q", "-b", "main", repo], check=True)
    with open(os.path.join(repo, "README.md"), "w") as f:
        f.write("# Shop\n")
    subprocess.run(["git", "-C", repo, "add", "."], check=True)
    subprocess.run(["git", "-C", repo, "-c", "user.name=b", "-c", "user.email=b@example.com",
                    "commit", "-q", "-m", "shop"], check=True)
    config = os.path.join(tmp, "config.yaml")
    with open(config, "w") as f:
        if args.plain_config:
            f.write("repos:\n  - name: shop\n    path: %s\nhttp:\n  max_connections: 128\n"
                    % repo)
        else:
            f.write("repos:\n  - name: shop\n    path: %s\nhttp:\n  max_connections: %d\n"
                    "  max_connections_per_address: %d\n  request_seconds: 600\n"
                    "  idle_seconds: 600\n" % (repo, 3 * args.each + 100, args.each + 10))
    err = open(os.path.join(tmp, "server.err"), "w")
    p = subprocess.Popen([args.binary, "--config", config, "--http", "127.0.0.1:0"],
                         stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=err, cwd=tmp)
    port = None
    for _ in range(300):
        with open(os.path.join(tmp, "server.err")) as f:
            m = re.search(r"over HTTP at http://[^ ]+:([0-9]+)/mcp", f.read())
        if m:
            port = int(m.group(1))
            break
        time.sleep(0.1)
    if not port:
        p.kill()
        sys.exit("the server did not start")
    try:
        time_calls(port, 100)  # warm up
        quiet = time_calls(port, args.calls)
        quiet_rss = rss_mb(p.pid)
        log("no other connection: p50 %.2f ms, p99 %.2f ms, RSS %.1f MB"
            % (quiet["p50"], quiet["p99"], quiet_rss[0]))

        silent = [connect(port, "127.0.0.2") for _ in range(args.each)]
        slow = [connect(port, "127.0.0.3") for _ in range(args.each)]
        idle = []
        health = b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:%d\r\n\r\n" % port
        for _ in range(args.each):
            s = connect(port, "127.0.0.4")
            s.settimeout(5)
            try:
                s.sendall(health)
                read_response(s)
            except (OSError, RuntimeError):
                pass  # a server that cannot answer it: the connection is held all the same
            idle.append(s)
        head = call_request(port, 0)
        stop = threading.Event()

        def dribble():
            for i in range(len(head) - 1):  # bounded; never the whole head
                for s in slow:
                    try:
                        s.send(head[i:i + 1])
                    except OSError:
                        pass  # closed by the server
                if stop.wait(1.0):
                    return

        t = threading.Thread(target=dribble)
        t.start()
        time.sleep(2)
        attacked = time_calls(port, args.calls)
        attacked_rss = rss_mb(p.pid)
        stop.set()
        t.join()
        alive = p.poll() is None
        log("%d slow + %d silent + %d idle: p50 %.2f ms, p99 %.2f ms, max %.2f ms, errors %s, "
            "RSS %.1f MB (peak %.1f), %d threads, server alive %s"
            % (args.each, args.each, args.each, attacked["p50"], attacked["p99"],
               attacked["max"], attacked["errors"], attacked_rss[0], attacked_rss[1],
               attacked_rss[2], alive))
        print("| connections held | calls | p50 ms | p99 ms | max ms | errors | RSS MB | threads |")
        print("|---|---|---|---|---|---|---|---|")
        print("| none | %d | %.2f | %.2f | %.2f | %s | %.1f | %d |"
              % (args.calls, quiet["p50"], quiet["p99"], quiet["max"], quiet["errors"],
                 quiet_rss[0], quiet_rss[2]))
        print("| %d slow, %d silent, %d idle | %d | %.2f | %.2f | %.2f | %s | %.1f (peak %.1f) | %d |"
              % (args.each, args.each, args.each, args.calls, attacked["p50"], attacked["p99"],
                 attacked["max"], attacked["errors"], attacked_rss[0], attacked_rss[1],
                 attacked_rss[2]))
        for s in silent + slow + idle:
            s.close()
    finally:
        p.terminate()
        p.wait(timeout=30)


if __name__ == "__main__":
    main()
