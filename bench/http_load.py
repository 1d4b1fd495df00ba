#!/usr/bin/env python3
"""The load benchmark over HTTP: http-load (bench/http_load.cc) drives repo-reader on loopback
with N concurrent clients calling read_file and list_files, first against one server, then
through HAProxy in front of three replicas. Each setting runs --runs times; the table gives every
run and the median, with the machine's load average when each run began (docs/performance.md,
"Over HTTP").

    bench/http_load.py                     # 16 clients, 60 s, 3 runs of each setting
    bench/http_load.py --seconds 10 --runs 1
    bench/http_load.py --only single       # or: replicas

The repository read is this project's own, cloned bare into bench/out/http/ at its HEAD; the
file is core/mcp/server.cc and the folder core/tools (override with --file / --folder)."""
import argparse
import json
import os
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOKEN = "http-load-bench-token"


def log(msg):
    print("http_load: " + msg, file=sys.stderr, flush=True)


def build(build_dir):
    if not os.path.exists(os.path.join(build_dir, "Makefile")):
        log("configuring a Release build in " + os.path.relpath(build_dir, ROOT))
        subprocess.run(["cmake", "-S", ROOT, "-B", build_dir, "-DCMAKE_BUILD_TYPE=Release",
                        "-DRR_TESTS=OFF", "-DRR_BENCH=ON"], check=True, stdout=subprocess.DEVNULL)
    subprocess.run(["cmake", "--build", build_dir, "-j2", "--target", "repo-reader",
                    "rr_secrets_plugin", "http-load"], check=True, stdout=subprocess.DEVNULL)


def free_port():
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def start_server(binary, config, err_path):
    err = open(err_path, "w")
    p = subprocess.Popen([binary, "--config", config, "--http", "127.0.0.1:0"],
                         stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=err,
                         cwd=os.path.dirname(config), env=dict(os.environ, RR_BENCH_TOKEN=TOKEN))
    deadline = time.time() + 30
    while time.time() < deadline:
        with open(err_path) as f:
            m = re.search(r"over HTTP at http://[^ ]+:([0-9]+)/mcp", f.read())
        if m:
            return p, int(m.group(1))
        if p.poll() is not None:
            raise SystemExit("the server did not start: " + open(err_path).read())
        time.sleep(0.05)
    raise SystemExit("the server did not start in 30 s")


def load_average():
    with open("/proc/loadavg") as f:
        return float(f.read().split()[0])


def run_load(http_load, port, pids, args):
    cmd = [http_load, "--port", str(port), "--clients", str(args.clients), "--seconds",
           str(args.seconds), "--repo", "rr", "--file", args.file, "--folder", args.folder,
           "--token", TOKEN, "--json"]
    for pid in pids:
        cmd += ["--pid", str(pid)]
    r = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if r.stderr:
        log(r.stderr.strip())
    result = json.loads(r.stdout)
    warm, end = rss_summary(result["rss_kb"])
    result["rss_mb"] = "%.1f -> %.1f" % (warm, end)
    return result


def rss_summary(samples):
    """(MB after 10 s of warm-up, MB at the end) summed over the servers."""
    warm = sum(s[min(10, len(s) - 1)] for s in samples) / 1024
    end = sum(s[-1] for s in samples) / 1024
    return warm, end


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--clients", type=int, default=16)
    ap.add_argument("--seconds", type=float, default=60)
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--only", choices=["single", "replicas"])
    ap.add_argument("--warmup", type=float, default=20,
                    help="seconds of load on one server before the runs, not counted (0: none)")
    ap.add_argument("--file", default="core/mcp/server.cc")
    ap.add_argument("--folder", default="core/tools")
    ap.add_argument("--build-dir", default=os.path.join(ROOT, "build-bench"))
    ap.add_argument("--haproxy", default="/usr/sbin/haproxy")
    args = ap.parse_args()

    build(args.build_dir)
    binary = os.path.join(args.build_dir, "repo-reader")
    http_load = os.path.join(args.build_dir, "bench", "http-load")
    out = os.path.join(ROOT, "bench", "out", "http")
    os.makedirs(out, exist_ok=True)
    repo = os.path.join(out, "repo-reader.git")
    if not os.path.exists(repo):
        subprocess.run(["git", "clone", "-q", "--bare", ROOT, repo], check=True)
    commit = subprocess.run(["git", "-C", repo, "rev-parse", "HEAD"], stdout=subprocess.PIPE,
                            text=True, check=True).stdout.strip()
    config = os.path.join(out, "config.yaml")
    with open(config, "w") as f:
        # A token, as a shared server has: then the Host header is not checked, and requests
        # through HAProxy (which passes the client's Host on) are answered.
        f.write("repos:\n  - name: rr\n    path: %s\nhttp:\n  token_env: RR_BENCH_TOKEN\n"
                % repo)
    log("repository: this project's at %s; %d clients, %g s a run, %d runs"
        % (commit[:12], args.clients, args.seconds, args.runs))

    results = {}
    tmp = tempfile.mkdtemp(prefix="rr-http-load-")
    if args.warmup > 0:
        # Not counted: a server that has been up has its background indexes of the repository
        # (history and text, kept in its cache folder) built; the first server started on a new
        # machine builds them while it answers, at the lowest priority but on the same cores.
        server, port = start_server(binary, config, os.path.join(tmp, "warmup.err"))
        try:
            time.sleep(1)
            warm = dict(vars(args))
            warm["seconds"] = args.warmup
            run_load(http_load, port, [server.pid], argparse.Namespace(**warm))
            log("warm-up: %g s of load on one server, not counted" % args.warmup)
        finally:
            server.terminate()
            server.wait()
    if args.only in (None, "single"):
        rows = []
        for i in range(args.runs):
            server, port = start_server(binary, config, os.path.join(tmp, "single.err"))
            try:
                time.sleep(1)
                load = load_average()
                r = run_load(http_load, port, [server.pid], args)
                r["load"] = load
                rows.append(r)
                log("single run %d: %s" % (i + 1, json.dumps({k: v for k, v in r.items()
                                                               if k != "rss_kb"})))
            finally:
                server.terminate()
                server.wait()
        results["one server"] = rows
    if args.only in (None, "replicas"):
        rows = []
        for i in range(args.runs):
            servers = [start_server(binary, config, os.path.join(tmp, "r%d.err" % k))
                       for k in range(3)]
            port = free_port()
            cfg = os.path.join(tmp, "haproxy.cfg")
            with open(cfg, "w") as f:
                f.write("global\n  nbthread 2\ndefaults\n  mode http\n  timeout connect 2s\n"
                        "  timeout client 60s\n  timeout server 60s\n"
                        "frontend mcp\n  bind 127.0.0.1:%d\n  default_backend replicas\n"
                        "backend replicas\n  balance roundrobin\n" % port)
                for k, (_, p) in enumerate(servers):
                    f.write("  server r%d 127.0.0.1:%d\n" % (k + 1, p))
            proxy = subprocess.Popen([args.haproxy, "-db", "-f", cfg], stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL)
            try:
                time.sleep(1)
                load = load_average()
                r = run_load(http_load, port, [s.pid for s, _ in servers], args)
                r["load"] = load
                rows.append(r)
                log("replicas run %d: %s" % (i + 1, json.dumps({k: v for k, v in r.items()
                                                                 if k != "rss_kb"})))
            finally:
                proxy.terminate()
                proxy.wait()
                for s, _ in servers:
                    s.terminate()
                    s.wait()
        results["HAProxy, 3 replicas"] = rows

    print("| setting | run | load avg | calls/s | p50 ms | p99 ms | max ms | errors "
          "| RSS MB after 10 s → end |")
    print("|---|---|---|---|---|---|---|---|---|")
    for name, rows in results.items():
        for i, r in enumerate(rows):
            warm, end = rss_summary(r["rss_kb"])
            print("| %s | %d | %.1f | %s | %.2f | %.2f | %.1f | %d | %.1f → %.1f |"
                  % (name, i + 1, r["load"], format(round(r["calls_per_s"]), ","), r["p50_ms"],
                     r["p99_ms"], r["max_ms"], r["errors"], warm, end))
        med = lambda key: statistics.median(r[key] for r in rows)
        print("| **%s, median** | | %.1f | **%s** | %.2f | **%.2f** | %.1f | %d | |"
              % (name, med("load"), format(round(med("calls_per_s")), ","), med("p50_ms"),
                 med("p99_ms"), med("max_ms"), sum(r["errors"] for r in rows)))


if __name__ == "__main__":
    main()
