#!/usr/bin/env python3
"""The mirrors benchmark: repo-reader's sync and a group of many repositories, end to end, with
git's own smart-HTTP server (git http-backend, tests/sync/git_http_server.py) on loopback.

  sync     a mirror of a large repository synced by the real server (history without contents,
           then the served files' contents at the default branch), timed from the server's start
           to its "synced" log line, beside `git clone --filter=blob:none --single-branch
           --no-tags` of the same (history, then HEAD's contents for the checkout) and the bare
           clone (history only); medians of --runs, each into an empty folder. Then read_file of
           one file on the mirror beside the same call on the repository served locally (the
           two servers alternate in blocks, on one CPU).
  group    a GitHub organisation of --group repositories, listed by a fake of GitHub's REST API
           (pages of 100, the `Link` header) and served by git http-backend: how long the listing
           takes and the server to its first answer, how many git processes run at once (sampled
           every 50 ms), syncs finished per second over --sync-seconds, list_repos (first page,
           cold and warm) and the server's memory while every repository is configured.

This is not a test and never runs in CI. Standard library only.
"""
import argparse
import http.server
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench  # noqa: E402
import scale  # noqa: E402

GIT_SERVER = os.path.join(bench.ROOT, "tests", "sync", "git_http_server.py")
OUT = os.path.join(bench.OUT, "mirrors")


def log(msg):
    bench.log(msg)


def git_out(repo, *args):
    return bench.git(*args, cwd=repo, capture_output=True, text=True).stdout.strip()


# ---- servers on loopback --------------------------------------------------------------------

def start_git_server(root, record):
    proc = subprocess.Popen([sys.executable, GIT_SERVER, "--root", root, "--record", record,
                             "--no-pack-record"], stdout=subprocess.PIPE, text=True)
    port = int(proc.stdout.readline())
    return proc, port


class FakeGitHub:
    """GET /api/v3/orgs/<owner>/repos?...&per_page=N&page=P as GitHub answers it: a JSON array,
    the next page in the `Link` header."""

    def __init__(self, owner, names):
        self.owner, self.names, self.requests = owner, names, 0
        outer = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *a):
                pass

            def do_GET(self):
                outer.requests += 1
                path, _, query = self.path.partition("?")
                params = dict(p.partition("=")[::2] for p in query.split("&") if p)
                if path != "/api/v3/orgs/%s/repos" % outer.owner:
                    return self.answer(404, [], b'{"message":"Not Found"}')
                per = min(int(params.get("per_page", "30")), 100)
                page = int(params.get("page", "1"))
                chunk = outer.names[(page - 1) * per:page * per]
                body = json.dumps([{
                    "name": n, "full_name": "%s/%s" % (outer.owner, n), "archived": False,
                    "fork": False, "description": "Service %s." % n, "default_branch": "main",
                    "clone_url": "https://elsewhere.example/%s.git" % n} for n in chunk]).encode()
                headers = [("Content-Type", "application/json; charset=utf-8")]
                if page * per < len(outer.names):
                    params["page"] = str(page + 1)
                    nxt = "http://127.0.0.1:%d%s?%s" % (
                        self.server.server_address[1], path,
                        "&".join("%s=%s" % kv for kv in params.items()))
                    headers.append(("Link", '<%s>; rel="next"' % nxt))
                self.answer(200, headers, body)

            def answer(self, status, headers, body):
                self.send_response(status)
                for k, v in headers:
                    self.send_header(k, v)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        self.server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def close(self):
        self.server.shutdown()


class Server:
    """The real binary over stdio, its stderr read line by line with the time each came."""

    def __init__(self, binary, config):
        self.t0 = time.monotonic()
        self.client = bench.Client.__new__(bench.Client)
        self.proc = subprocess.Popen([binary, "--config", config], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        self.client.proc, self.client.fd = self.proc, self.proc.stdin.fileno()
        self.client.out, self.client.next_id = self.proc.stdout, 0
        self.lines, self.cv = [], threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self):
        for raw in self.proc.stderr:
            with self.cv:
                self.lines.append((time.monotonic() - self.t0, raw.decode(errors="replace")))
                self.cv.notify_all()

    def wait_for(self, words, count=1, timeout=600):
        """Seconds from the start to the count-th stderr line holding one of `words`."""
        deadline = time.monotonic() + timeout
        with self.cv:
            while True:
                hits = [t for t, line in self.lines if any(w in line for w in words)]
                if len(hits) >= count:
                    return hits[count - 1]
                left = deadline - time.monotonic()
                if left <= 0 or self.proc.poll() is not None:
                    raise RuntimeError("waited for %r; the server said:\n%s" % (
                        words, "".join(line for _, line in self.lines[-20:])))
                self.cv.wait(min(left, 1))

    def count(self, word):
        with self.cv:
            return sum(1 for _, line in self.lines if word in line)

    def close(self):
        self.client.close()


def git_children(pid):
    """How many git processes descend from `pid` now: (started by it, all of them)."""
    parent, name = {}, {}
    for p in os.listdir("/proc"):
        if not p.isdigit():
            continue
        try:
            with open("/proc/%s/stat" % p) as f:
                stat = f.read()
        except OSError:
            continue
        comm = stat[stat.index("(") + 1:stat.rindex(")")]
        parent[int(p)] = int(stat[stat.rindex(")") + 2:].split()[1])
        name[int(p)] = comm
    direct = every = 0
    for p, comm in name.items():
        if not comm.startswith("git"):
            continue
        direct += parent.get(p) == pid
        q = parent.get(p)
        while q and q != pid:
            q = parent.get(q)
        every += q == pid
    return direct, every


# ---- sync -----------------------------------------------------------------------------------

def write_yaml(path, text):
    with open(path, "w") as f:
        f.write(text)
    return path


def measure_sync(binary, repo, runs, calls, path):
    root = tempfile.mkdtemp(prefix="rr-mirrors-")
    server = None
    try:
        os.symlink(os.path.abspath(repo), os.path.join(root, "big.git"))
        record = os.path.join(root, "record")
        os.makedirs(record)
        server, port = start_git_server(root, record)
        url = "http://127.0.0.1:%d/big.git" % port
        branch = git_out(repo, "symbolic-ref", "--short", "HEAD")
        res = {"ours_s": [], "git_clone_s": [], "git_bare_s": [], "branch": branch}
        work = os.path.join(root, "work")
        for run in range(runs):
            shutil.rmtree(work, ignore_errors=True)
            os.makedirs(work)
            # git first, then ours, then git bare: each into an empty folder.
            t = time.monotonic()
            bench.git("clone", "-q", "--filter=blob:none", "--single-branch", "--no-tags",
                      url, os.path.join(work, "clone"))
            res["git_clone_s"].append(time.monotonic() - t)
            cfg = write_yaml(os.path.join(work, "mirror.yaml"), (
                "mirror_folder: %s\nhistory_index: false\nmirrors:\n  - name: big\n"
                "    url: %s\n    refs: [\"%s\"]\n") % (os.path.join(work, "m"), url, branch))
            s = Server(binary, cfg)
            try:
                res["ours_s"].append(s.wait_for(["synced from", "could not sync"]))
                if s.count("could not sync"):
                    raise RuntimeError("".join(line for _, line in s.lines))
                res["contents"] = [line.strip() for _, line in s.lines if "synced" in line][-1]
            finally:
                s.close()
            t = time.monotonic()
            bench.git("clone", "-q", "--bare", "--filter=blob:none", "--single-branch",
                      "--no-tags", url, os.path.join(work, "bare"))
            res["git_bare_s"].append(time.monotonic() - t)
            log("  run %d: ours %.2f s, git clone %.2f s, bare %.2f s" % (
                run + 1, res["ours_s"][-1], res["git_clone_s"][-1], res["git_bare_s"][-1]))
        mirror_dir = os.path.join(work, "m")
        res["mirror_mb"] = sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in
                               os.walk(mirror_dir) for f in fs) / 1e6
        # read_file on the mirror (its folder kept from the last run) and on the repository.
        local = write_yaml(os.path.join(work, "local.yaml"), (
            "history_index: false\nrepos:\n  - name: big\n    path: %s\n") % os.path.abspath(repo))
        reads = scale.measure_read(binary, [cfg, local], "big", path, calls)
        res["read_mirror_ms"], res["read_local_ms"] = (r["median_ms"] for r in reads)
        return res
    finally:
        if server:
            server.kill()
        shutil.rmtree(root, ignore_errors=True)


# ---- group ----------------------------------------------------------------------------------

def measure_group(binary, count, sync_seconds, history_index=True):
    repos = scale.make_repos(count)  # bench/out/scale/repos, borrowing one template's objects
    root = os.path.join(OUT, "group-root")
    names = [name for name, _ in repos]
    stamp = os.path.join(root, "count")
    if bench.read_or_none(stamp) != str(count):
        shutil.rmtree(root, ignore_errors=True)
        os.makedirs(os.path.join(root, "acme"))
        for name, path in repos:
            os.symlink(path, os.path.join(root, "acme", name + ".git"))
        with open(stamp, "w") as f:
            f.write(str(count))
    work = tempfile.mkdtemp(prefix="rr-group-")
    record = os.path.join(work, "record")
    os.makedirs(record)
    git_server, git_port = start_git_server(root, record)
    api = FakeGitHub("acme", sorted(names))
    res = {"count": count}
    try:
        cfg = write_yaml(os.path.join(work, "group.yaml"), (
            "history_index: %s\nmirror_folder: %s\ncache_folder: %s\ngroups:\n"
            "  - host: http://127.0.0.1:%d\n    host_kind: github\n"
            "    api: http://127.0.0.1:%d/api/v3\n    owner: acme\n") % (
                "true" if history_index else "false", os.path.join(work, "m"),
                os.path.join(work, "cache"), git_port, api.port))
        s = Server(binary, cfg)
        most, stop = [0, 0], threading.Event()

        def sample():
            while not stop.wait(0.05):
                direct, every = git_children(s.proc.pid)
                most[0], most[1] = max(most[0], direct), max(most[1], every)
        threading.Thread(target=sample, daemon=True).start()
        try:
            t = time.monotonic()
            s.client.initialize()
            res["first_answer_s"] = time.monotonic() - s.t0
            res["api_requests"] = api.requests
            res["rss_mb_first_answer"] = bench.memory_kb(s.proc.pid)["VmRSS"] / 1024
            times = []
            for _ in range(6):
                t = time.monotonic()
                text = bench.answer_text(s.client.call("list_repos", {}))
                times.append((time.monotonic() - t) * 1000)
            res["list_cold_ms"], res["list_warm_ms"] = times[0], bench.median(times[1:])
            res["list_header"] = text.splitlines()[0]
            res["not_mirrored_yet_on_page"] = text.count("not mirrored yet")
            t_sync = time.monotonic()
            synced0 = s.count("synced from")
            # Until --sync-seconds have passed or every repository has synced once.
            end = t_sync + sync_seconds
            while time.monotonic() < end and s.count("synced from") < count:
                time.sleep(min(5, max(0.1, end - time.monotonic())))
                if len(res.setdefault("progress", [])) < 10000:
                    res["progress"].append((round(time.monotonic() - t_sync),
                                            s.count("synced from"),
                                            bench.memory_kb(s.proc.pid)["VmRSS"] // 1024))
            res["synced_in_window"] = s.count("synced from") - synced0
            res["failed"] = s.count("could not sync")
            res["sync_window_s"] = time.monotonic() - t_sync
            res["most_git_at_once"] = most[0]
            res["most_git_tree_at_once"] = most[1]
            res["rss_mb_after"] = bench.memory_kb(s.proc.pid)["VmRSS"] / 1024
            t = time.monotonic()
            bench.answer_text(s.client.call("list_repos", {}))
            res["list_after_ms"] = (time.monotonic() - t) * 1000
            first_synced = [line for _, line in s.lines if "synced from" in line][:1]
            if first_synced:
                name = first_synced[0].split("`")[1]
                t = time.monotonic()
                first = bench.answer_text(s.client.call("read_file", {
                    "repo": name, "path": "README.md"}))
                res["read_synced_ms"] = (time.monotonic() - t) * 1000
                res["read_synced_first_line"] = first.splitlines()[0]
            res["listing_lines"] = [line.strip() for _, line in s.lines if "group" in line][-2:]
        finally:
            stop.set()
            s.close()
    finally:
        api.close()
        git_server.kill()
        shutil.rmtree(work, ignore_errors=True)
    return res


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--binary", help="use this repo-reader binary instead of building one")
    ap.add_argument("--build-dir", default=os.path.join(bench.ROOT, "build-bench"))
    ap.add_argument("--repo", help="a bare repository to mirror (default: the generated one, "
                    "bench/run.sh's, at --size)")
    ap.add_argument("--size", choices=sorted(bench.SIZES), default="small")
    ap.add_argument("--file", help="the file read_file reads (default: README.md or the "
                    "generated repository's large file)")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--calls", type=int, default=200)
    ap.add_argument("--group", type=int, default=0, help="repositories in the group (0: skip)")
    ap.add_argument("--sync-seconds", type=float, default=30,
                    help="how long to watch the first syncs (they stop being watched once every "
                    "repository has synced)")
    ap.add_argument("--history-index", choices=["on", "off"], default="on",
                    help="the history indexer (on by default, as a configuration has it)")
    ap.add_argument("--only", choices=["sync", "group"])
    ap.add_argument("--json")
    args = ap.parse_args()
    binary = args.binary or bench.build_binary(args.build_dir)
    out = {"load_start": bench.loadavg()}
    if args.only != "group":
        repo = args.repo or bench.generate(os.path.join(bench.OUT, "repo-%s.git" % args.size),
                                           **bench.SIZES[args.size])
        path = args.file
        if not path:
            top = git_out(repo, "ls-tree", "--name-only", "HEAD").split("\n")
            path = "README.md" if "README.md" in top else bench.BIG_FILE
        log("sync: %s, %d runs" % (repo, args.runs))
        out["sync"] = measure_sync(binary, repo, args.runs, args.calls, path)
        out["sync"]["file"] = path
    if args.group and args.only != "sync":
        log("group: %d repositories" % args.group)
        out["group"] = measure_group(binary, args.group, args.sync_seconds,
                                     args.history_index == "on")
        out["group"]["history_index"] = args.history_index
    out["load_end"] = bench.loadavg()
    if args.json:
        with open(args.json, "w") as f:
            json.dump(out, f, indent=1)
    report(out)


def report(out):
    print("repo-reader mirrors benchmark — %s; load %s at the start, %s at the end" % (
        time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), out["load_start"], out["load_end"]))
    if "sync" in out:
        r = out["sync"]
        med = {k: bench.median(r[k]) for k in ("ours_s", "git_clone_s", "git_bare_s")}
        print("\n| sync (median of %d) | seconds | ours / this |" % len(r["ours_s"]))
        print("| --- | ---: | ---: |")
        print("| repo-reader: history, then the served files' contents at `%s` | %.2f | — |" % (
            r["branch"], med["ours_s"]))
        print("| git clone --filter=blob:none --single-branch --no-tags | %.2f | %.2f× |" % (
            med["git_clone_s"], med["ours_s"] / med["git_clone_s"]))
        print("| git clone --bare --filter=blob:none (history only) | %.2f | %.2f× |" % (
            med["git_bare_s"], med["ours_s"] / med["git_bare_s"]))
        print("\nruns: ours %s; git clone %s; bare %s" % tuple(
            ", ".join("%.2f" % x for x in r[k]) for k in ("ours_s", "git_clone_s", "git_bare_s")))
        print("the server's log: %s; the mirror's folder: %.1f MB" % (r["contents"],
                                                                     r["mirror_mb"]))
        print("read_file of %s: %.3f ms on the mirror, %.3f ms on the repository served locally"
              % (r["file"], r["read_mirror_ms"], r["read_local_ms"]))
    if "group" in out:
        g = out["group"]
        print("\n| group of %d repositories | figure |" % g["count"])
        print("| --- | ---: |")
        for key, label, fmt in [
                ("first_answer_s", "start to first answer (the listing done first)", "%.2f s"),
                ("api_requests", "API requests (pages)", "%d"),
                ("rss_mb_first_answer", "memory at the first answer", "%.1f MB"),
                ("list_cold_ms", "list_repos, first page, cold", "%.1f ms"),
                ("list_warm_ms", "list_repos, first page, warm (median of 5)", "%.1f ms"),
                ("sync_window_s", "syncs watched for", "%.0f s"),
                ("synced_in_window", "syncs finished meanwhile", "%d"),
                ("failed", "syncs failed", "%d"),
                ("most_git_at_once", "git commands the server ran at once, at most (sampled)",
                 "%d"),
                ("most_git_tree_at_once", "with the processes git started, at most", "%d"),
                ("rss_mb_after", "memory after that", "%.1f MB"),
                ("list_after_ms", "list_repos then", "%.1f ms"),
                ("read_synced_ms", "read_file on a synced one (first call)", "%.2f ms")]:
            if key in g:
                print("| %s | %s |" % (label, fmt % g[key]))
        print("\n%s; %s" % (g.get("list_header", ""), g.get("read_synced_first_line", "")))
        for t, n, mb in g.get("progress", [])[::max(1, len(g.get("progress", [])) // 12)]:
            print("after %d s: %d synced, %d MB" % (t, n, mb))
        for line in g.get("listing_lines", []):
            print("log: " + line)


if __name__ == "__main__":
    main()
