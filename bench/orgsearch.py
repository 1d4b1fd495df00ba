#!/usr/bin/env python3
"""The organisation search benchmark: search across many repositories made from snapshots of
public repositories, with the text index (after the background indexing has finished) and
without it (every file read), beside Debian's codesearch (cindex / csearch) over the same files.
Not a test; never run in CI; nothing it fetches or builds is committed (bench/out/ is ignored).

    bench/orgsearch.sh                                 the default sources, 200 repositories
    bench/orgsearch.sh --repos 1000 --calls 5
    bench/orgsearch.sh --source /path/to/bare.git ...  local repositories instead of fetching
    bench/orgsearch.sh --repos 60 --baseline /path/to/older/repo-reader
                                                       before / after in the same run

The organisation: each source is cloned (bare, depth 1) once into bench/out/org/sources/; each of
the --repos repositories is a bare repository borrowing one source's objects (alternates, round
robin) with a commit of its own on `main` that adds ORG_TOKEN.txt holding `orgtoken-NNNNN`, so
that every repository differs and each token is in exactly one. Two servers read it over stdio:
one with a cache folder (the text index), one with history_index: false (no cache folder: no
index, every file read). The text index is made from nothing in each run; the history index
beside it in the cache folder is kept between runs, as a restarted server keeps it (the first run
builds it). The queries begin once the servers are quiet: every background pass done. Each query
is called --calls times on each, alternating; the answers of the two must be identical (counted). csearch runs over a checkout of every repository's files.
With --baseline, a third server -- another build (an older commit), over the same cache folder
once the first has indexed it -- answers every query in the same rounds, so that before and after
are measured on the same machine at the same load; its answers must be identical too.
"""
import argparse
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import time
import zlib

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import bench  # noqa: E402

OUT = os.path.join(HERE, "out", "org")
SOURCES = [
    "https://github.com/pallets/flask",
    "https://github.com/expressjs/express",
    "https://github.com/google/leveldb",
    "https://github.com/sharkdp/fd",
    "https://github.com/tidwall/gjson",
    "https://github.com/redis/hiredis",
]


def git(*args, **kw):
    return subprocess.run(["git"] + list(args), env=bench.GIT_ENV, check=True,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE, **kw).stdout


def source_dirs(sources):
    os.makedirs(os.path.join(OUT, "sources"), exist_ok=True)
    out = []
    for s in sources:
        if os.path.isdir(s):
            out.append(os.path.abspath(s))
            continue
        name = re.sub(r"[^A-Za-z0-9_.-]", "_", s.rstrip("/").split("github.com/")[-1])
        d = os.path.join(OUT, "sources", name + ".git")
        if not os.path.isdir(d):
            bench.log("fetching %s" % s)
            git("clone", "--quiet", "--bare", "--depth", "1", s, d)
        out.append(d)
    return out


def objects_dir(d):
    common = git("--git-dir", d, "rev-parse", "--git-common-dir").decode().strip()
    return os.path.abspath(os.path.join(d, common, "objects") if not os.path.isabs(common)
                           else os.path.join(common, "objects"))


def write_object(objects, kind, body):
    """Writes a loose object into `objects` (as `git hash-object -w` does); returns its id."""
    data = b"%s %d\0" % (kind, len(body)) + body
    oid = hashlib.sha1(data).hexdigest()
    folder = os.path.join(objects, oid[:2])
    os.makedirs(folder, exist_ok=True)
    path = os.path.join(folder, oid[2:])
    if not os.path.exists(path):
        with open(path + ".tmp", "wb") as f:
            f.write(zlib.compress(data, 1))
        os.rename(path + ".tmp", path)
    return oid


def root_entries(src, head):
    """The root tree of `head` in `src`: (mode, name, raw id) of each entry."""
    out = []
    for line in git("--git-dir", src, "ls-tree", "-z", head).split(b"\0"):
        if not line:
            continue
        meta, name = line.split(b"\t", 1)
        mode, kind, oid = meta.split(b" ")
        out.append((mode, name, bytes.fromhex(oid.decode()), kind == b"tree"))
    return out


def source_name(src):
    """A short name for a source: `owner+name/repo` (a fetched snapshot) -> name; `x.git` -> x."""
    src = src.rstrip("/")
    if os.path.basename(src) == "repo":
        src = os.path.dirname(src)
    return os.path.basename(src).replace(".git", "").split("+")[-1]


def make_org(sources, count):
    """Each repository: a bare repository borrowing its source's objects, whose `main` is one
    commit over the source's HEAD adding ORG_TOKEN.txt. Its three objects (blob, root tree,
    commit) are written here directly, as git writes loose objects (20,000 repositories in a
    minute or two rather than the better part of an hour of git processes)."""
    root = os.path.join(OUT, "repos-%d" % count)
    os.makedirs(root, exist_ok=True)
    repos = []
    heads = {s: git("--git-dir", s, "rev-parse", "HEAD").decode().strip() for s in sources}
    entries = {s: root_entries(s, heads[s]) for s in sources}
    alternates = {s: objects_dir(s) for s in sources}
    for i in range(count):
        src = sources[i % len(sources)]
        name = "r%05d-%s" % (i, source_name(src))
        d = os.path.join(root, name + ".git")
        repos.append((name, d))
        if os.path.isdir(d):
            continue
        tmp = d + ".making"
        shutil.rmtree(tmp, ignore_errors=True)
        objects = os.path.join(tmp, "objects")
        for sub in ("objects/info", "objects/pack", "refs/heads", "refs/tags"):
            os.makedirs(os.path.join(tmp, sub))
        with open(os.path.join(tmp, "config"), "w") as f:
            f.write("[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = true\n")
        with open(os.path.join(objects, "info", "alternates"), "w") as f:
            f.write(alternates[src] + "\n")
        blob = write_object(objects, b"blob", b"orgtoken-%05d\n" % i)
        ents = entries[src] + [(b"100644", b"ORG_TOKEN.txt", bytes.fromhex(blob), False)]
        ents.sort(key=lambda e: e[1] + (b"/" if e[3] else b""))
        tree = write_object(objects, b"tree", b"".join(m + b" " + n + b"\0" + o
                                                       for m, n, o, _ in ents))
        who = b"bench <b@example.com> 1764633600 +0000"
        commit = write_object(objects, b"commit", b"tree %s\nparent %s\nauthor %s\ncommitter %s"
                              b"\n\norg %d\n" % (tree.encode(), heads[src].encode(), who, who, i))
        with open(os.path.join(tmp, "refs", "heads", "main"), "w") as f:
            f.write(commit + "\n")
        with open(os.path.join(tmp, "HEAD"), "w") as f:
            f.write("ref: refs/heads/main\n")
        os.rename(tmp, d)
    return repos


def write_config(path, repos, cache):
    with open(path, "w") as f:
        f.write("repos:\n")
        for name, p in repos:
            f.write("  - name: %s\n    path: %s\n" % (name, json.dumps(p)))
        f.write("limits:\n  answer_characters: 40000\n")
        if cache:
            f.write("cache_folder: %s\nhistory_index: true\n" % json.dumps(cache))
        else:
            f.write("history_index: false\n")
    return path


def queries(count):
    q = []
    for i in (count // 7, count // 2, count - 1):
        q.append(("unique token", {"pattern": "orgtoken-%05d" % i}))
    q += [
        ("rare identifier", {"pattern": "redisReconnect"}),
        ("rare identifier", {"pattern": "send_from_directory"}),
        ("rare identifier", {"pattern": "GetApproximateSizes"}),
        ("common identifier", {"pattern": "return"}),
        ("common identifier", {"pattern": "function"}),
        ("regex", {"pattern": r"func \w+Handler\(", "regex": True}),
        ("regex", {"pattern": r"def [a-z_]+\(self", "regex": True}),
        ("regex", {"pattern": r"^#include <[a-z]+\.h>", "regex": True}),
        ("ignore-case", {"pattern": "writebatch", "ignore_case": True}),
        ("ignore-case", {"pattern": "Permission Denied", "ignore_case": True}),
        ("path filter", {"pattern": "static", "path": "src"}),
        ("path filter", {"pattern": "Options", "path": "include"}),
    ]
    return q


def index_log(path):
    """(new text bytes, seconds) of each index built, from the server's log lines: wall time,
    and CPU time where the server logs it (at the lowest priority on a busy machine, the wall
    time says more about the machine than about the indexing)."""
    wall, cpu = [], []
    pat = re.compile(r"text index of `[^`]*`: [\d,]+ files?, ([\d.]+) MB of text indexed in "
                     r"([\d.]+) s")
    pat_cpu = re.compile(r"\(([\d.]+) MB of new text\) in ([\d.]+) s of CPU")
    with open(path, errors="replace") as f:
        for line in f:
            m = pat.search(line)
            if m:
                wall.append((float(m.group(1)) * 1e6, float(m.group(2))))
            m = pat_cpu.search(line)
            if m:
                cpu.append((float(m.group(1)) * 1e6, float(m.group(2))))
    return wall, cpu


def rss_mb(pid):
    return bench.memory_kb(pid).get("VmRSS", 0) / 1024.0


def wait_indexed(client, count, limit_s):
    began = time.time()
    while time.time() - began < limit_s:
        text = bench.answer_text(client.call("about", {}))
        m = re.search(r"text index: ([\d,]+) of ([\d,]+) repositories' default branches "
                      r"\(([\d,]+) MB of text in ([\d,]+) MB\)", text)
        if m and int(m.group(1).replace(",", "")) >= count:
            return time.time() - began, m.group(0)
        time.sleep(2)
    raise RuntimeError("the index was not built within %d s" % limit_s)


def cpu_s(pid):
    """The process's CPU time so far, all threads (s)."""
    with open("/proc/%d/stat" % pid) as f:
        x = f.read().rsplit(")", 1)[1].split()
    return (int(x[11]) + int(x[12])) / os.sysconf("SC_CLK_TCK")


def wait_quiet(clients, limit_s, window_s=10, share=0.02):
    """Until no server has used more than `share` of a core over the last `window_s` seconds:
    every background pass done (the text index's, the history index's, which goes on long after
    the text index is whole when it is built from nothing), so that the queries are measured
    on a machine the servers' own background work does not share. Seconds waited."""
    began = time.time()
    last = [cpu_s(c.proc.pid) for c in clients]
    while time.time() - began < limit_s:
        time.sleep(window_s)
        now = [cpu_s(c.proc.pid) for c in clients]
        if all(n - l < share * window_s for n, l in zip(now, last)):
            return time.time() - began
        last = now
    raise RuntimeError("the servers were still busy after %d s" % limit_s)


def remove_text_index(cache):
    """The text index of a cache folder (the store, and each repository's list), not the history
    index beside it: indexed from nothing in every run, as a restarted server keeps its history
    index (built once, over 20,000 repositories the better part of half an hour)."""
    shutil.rmtree(os.path.join(cache, "text"), ignore_errors=True)
    for dirpath, _, files in os.walk(cache):
        for f in files:
            if f in ("text.idx", "text.list"):
                os.unlink(os.path.join(dirpath, f))


def percentile(xs, p):
    s = sorted(xs)
    return s[min(len(s) - 1, int(round(p / 100.0 * (len(s) - 1))))]


def csearch_run(repos, tree_root, qs, calls):
    if not shutil.which("cindex") or not shutil.which("csearch"):
        return None
    index = os.path.join(OUT, "csearch-%d.idx" % len(repos))
    env = dict(os.environ, CSEARCHINDEX=index)
    if not os.path.isdir(tree_root):
        os.makedirs(tree_root)
        for name, d in repos:
            t = os.path.join(tree_root, name)
            os.makedirs(t)
            a = subprocess.Popen(["git", "--git-dir", d, "archive", "main"], env=bench.GIT_ENV,
                                 stdout=subprocess.PIPE)
            subprocess.run(["tar", "-x", "-C", t], stdin=a.stdout, check=True)
            a.wait()
    t0 = time.time()
    if os.path.exists(index):
        os.unlink(index)
    subprocess.run(["cindex", tree_root], env=env, check=True, stdout=subprocess.DEVNULL,
                   stderr=subprocess.DEVNULL)
    built = time.time() - t0
    times = {}
    for kind, args in qs:
        pat = args["pattern"] if args.get("regex") else re.escape(args["pattern"])
        argv = ["csearch", "-n"]
        if args.get("ignore_case"):
            argv.append("-i")
        if args.get("path"):
            argv += ["-f", "/" + re.escape(args["path"]) + "/"]
        argv.append(pat)
        for _ in range(calls):
            s = time.perf_counter_ns()
            p = subprocess.run(argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
            times.setdefault(json.dumps(args, sort_keys=True), []).append(
                (time.perf_counter_ns() - s) / 1e6)
            times[json.dumps(args, sort_keys=True) + "#lines"] = p.stdout.count(b"\n")
    return built, os.path.getsize(index), times


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("--binary", default=os.path.join(bench.ROOT, "build", "repo-reader"))
    ap.add_argument("--source", action="append", help="a git URL or a local repository")
    ap.add_argument("--repos", type=int, default=200)
    ap.add_argument("--calls", type=int, default=3)
    ap.add_argument("--index-wait", type=int, default=1800)
    ap.add_argument("--no-csearch", action="store_true")
    ap.add_argument("--no-scan", action="store_true",
                    help="no server without the index (over 20,000 repositories every call of\n"
                         "one would take the whole call limit)")
    ap.add_argument("--baseline", help="another repo-reader binary, measured beside (same cache)")
    a = ap.parse_args()
    sources = source_dirs(a.source or SOURCES)
    repos = make_org(sources, a.repos)
    cache = os.path.join(OUT, "cache-%d" % a.repos)
    indexed_cfg = write_config(os.path.join(OUT, "indexed-%d.yaml" % a.repos), repos, cache)
    scan_cfg = write_config(os.path.join(OUT, "scan-%d.yaml" % a.repos), repos, None)
    unique = 0
    for s in sources:
        out = git("--git-dir", s, "ls-tree", "-r", "-l", "HEAD").decode()
        unique += sum(int(l.split()[3]) for l in out.splitlines() if l.split()[1] == "blob")
    unique += 15 * a.repos

    # The text index made from nothing in every run: the log's figures are the first pass's.
    remove_text_index(cache)
    log = os.path.join(OUT, "indexed-%d.log" % a.repos)
    indexed = bench.Client(a.binary, indexed_cfg, log=log)
    indexed.initialize()
    idle_mb = rss_mb(indexed.proc.pid)
    t_index, about = wait_indexed(indexed, a.repos, a.index_wait)
    indexed_mb = rss_mb(indexed.proc.pid)
    index_bytes = 0
    for dirpath, _, files in os.walk(cache):
        # Each repository's list (text.list; text.idx: a whole index of its own, before the
        # shared store), the store's shards and its parts (parts/<key>.list).
        index_bytes += sum(os.path.getsize(os.path.join(dirpath, f)) for f in files
                           if f in ("text.idx", "text.list") or f.endswith(".tri")
                           or (os.path.basename(dirpath) == "parts" and f.endswith(".list")))
    builds = index_log(log)
    base = None
    if a.baseline:
        base = bench.Client(a.baseline, indexed_cfg)
        base.initialize()
        wait_indexed(base, a.repos, a.index_wait)
    t_quiet = wait_quiet([indexed] + ([base] if base else []), a.index_wait)
    quiet_mb = rss_mb(indexed.proc.pid)
    scan = None
    if not a.no_scan:
        scan = bench.Client(a.binary, scan_cfg)
        scan.initialize()
    qs = queries(a.repos)
    rows, all_with, all_without, all_base, same, stopped = [], [], [], [], 0, 0
    calls_with = []  # (ms, which call of its query, query): the slowest are named
    first_base = []  # the baseline's first call of each query
    for kind, args in qs:
        w, wo, b = [], [], []
        texts = []
        clients = ([(indexed, w)] + ([(scan, wo)] if scan else []) +
                   ([(base, b)] if base else []))
        for _ in range(a.calls):
            for client, sink in clients:
                s = time.perf_counter_ns()
                line = client.call("search", args)
                sink.append((time.perf_counter_ns() - s) / 1e6)
                if client is indexed:
                    calls_with.append((sink[-1], len(sink), json.dumps(args)))
                texts.append(bench.answer_text(line))
        if b:
            first_base.append(b[0])
        same += all(t == texts[0] for t in texts[:len(clients)])
        stopped += "[partial" in texts[0]
        header = texts[0].split("\n", 1)[0]
        rows.append((kind, args, bench.median(w), bench.median(wo) if wo else None,
                     bench.median(b) if b else None, header))
        all_with += w
        all_without += wo
        all_base += b
    peak_mb = rss_mb(indexed.proc.pid)
    indexed.close()
    if scan:
        scan.close()
    if base:
        base.close()
    cs = None if a.no_csearch else csearch_run(repos, os.path.join(OUT, "trees-%d" % a.repos), qs,
                                               a.calls)

    print("organisation: %d repositories from %d sources; load %s" %
          (a.repos, len(sources), bench.loadavg()))
    print("indexing (after start, background): %.1f s; %s" % (t_index, about))
    print("index on disk: %.1f MB; unique text of the sources: %.1f MB (ratio %.2f)" %
          (index_bytes / 1e6, unique / 1e6, index_bytes / max(unique, 1)))
    wall, cpu = builds
    if wall:
        new = sum(b[0] for b in wall)
        secs = sum(b[1] for b in wall)
        print("indexing, per the log: %d repositories indexed, %.1f MB of text read in %.1f s "
              "of wall time (%.2f MB/s)" % (len(wall), new / 1e6, secs, new / 1e6 / max(secs, 1e-9)))
    if cpu:
        new = sum(b[0] for b in cpu)
        secs = sum(b[1] for b in cpu)
        big = sorted(b[0] / 1e6 / b[1] for b in cpu if b[0] >= 1e6 and b[1] > 0)
        print("indexing, CPU time: %d builds read new contents, %.2f MB of new text in %.2f s of "
              "CPU (%.1f MB/s per core); builds reading 1 MB or more: %s MB/s" %
              (len(cpu), new / 1e6, secs, new / 1e6 / max(secs, 1e-9),
               ", ".join("%.1f" % x for x in big)))
    print("background work (history index, first passes) done %.0f s after the text index was"
          " whole" % t_quiet)
    print("memory (VmRSS): idle after initialize %.1f MB, the text index whole %.1f MB, idle "
          "with every background pass done %.1f MB, after the queries %.1f MB" %
          (idle_mb, indexed_mb, quiet_mb, peak_mb))
    if scan or base:
        print("answers identical with and without the index%s: %d of %d; partial answers: %d" %
              (" (and the baseline's)" if base else "", same, len(qs), stopped))
    else:
        print("answers not compared (--no-scan); partial answers: %d" % stopped)
    print()
    print("| query | kind | with the index (ms, median) | baseline (ms) | every file read (ms) "
          "| csearch (ms) | answer |")
    print("| --- | --- | ---: | ---: | ---: | ---: | --- |")
    for kind, args, w, wo, b, header in rows:
        c = ""
        if cs:
            c = "%.1f" % bench.median(cs[2][json.dumps(args, sort_keys=True)])
        print("| `%s` | %s | %.1f | %s | %s | %s | %s |" % (
            json.dumps(args), kind, w, "%.1f" % b if b is not None else "",
            "%.1f" % wo if wo is not None else "", c, header[:90]))
    print()
    print("with the index: p50 %.1f ms, p99 %.1f ms" % (percentile(all_with, 50),
                                                       percentile(all_with, 99)))
    print("slowest calls with the index: " + "; ".join(
        "%.1f ms (call %d of `%s`)" % c for c in sorted(calls_with, reverse=True)[:3]))
    # The first call of each query pays for what later calls find kept (trees read, guidance
    # walked, secrets scanned): the p99 is made of them.
    firsts = [c[0] for c in calls_with if c[1] == 1]
    if firsts:
        print("first call of each query with the index: median %.1f ms, slowest %.1f ms%s" % (
            bench.median(firsts), max(firsts),
            "; baseline median %.1f ms, slowest %.1f ms (after the new build's, page cache warm)"
            % (bench.median(first_base), max(first_base)) if first_base else ""))
    if all_without:
        print("every file read: p50 %.1f ms, p99 %.1f ms" % (percentile(all_without, 50),
                                                            percentile(all_without, 99)))
    if all_base:
        print("baseline (%s): p50 %.1f ms, p99 %.1f ms" %
              (a.baseline, percentile(all_base, 50), percentile(all_base, 99)))
    print("load average after: %s" % bench.loadavg())
    if cs:
        flat = [x for k, v in cs[2].items() if not k.endswith("#lines") for x in v]
        print("csearch: cindex %.1f s, index %.1f MB; p50 %.1f ms, p99 %.1f ms" %
              (cs[0], cs[1] / 1e6, percentile(flat, 50), percentile(flat, 99)))


if __name__ == "__main__":
    main()
