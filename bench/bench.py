#!/usr/bin/env python3
"""repo-reader benchmark: the real binary over stdio, beside the git command line.

Builds (or reuses) a large generated repository, then measures, end to end through a persistent
MCP client over stdio:

  read_file           the ~100 KB file at the default branch   vs  git cat-file -p <commit>:<path>
  list_files          the root                                 vs  git ls-tree <commit>
  list_files -r       the root, recursive                      vs  git ls-tree -r <commit>
  list_refs           all branches and tags                    vs  git for-each-ref
  start to first answer   spawn, initialize, first read_file answered (median of --starts runs)
  idle memory         VmRSS with 100 repositories configured, after initialize and after one
                      list_repos call (100 small repositories, and 100 clones of the large one)

Each git command is timed as a process spawn, which is what a tool built on the git command line
pays per call. Ours and git's calls alternate in blocks (--block), so both see the same machine.
This is not a test and never runs in CI. Standard library only.
"""
import argparse
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
OUT = os.path.join(HERE, "out")
BIG_FILE = "builtin/sequencer.c"
GEN_VERSION = 1  # bump when gen_repo.py changes what it generates

SIZES = {
    "full": dict(commits=80000, files=5000, tags=1000),
    "small": dict(commits=8000, files=1000, tags=100),
}

# git must not be steered by the machine's or the user's configuration.
GIT_ENV = dict(os.environ, GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL=os.devnull,
               GIT_TERMINAL_PROMPT="0", LC_ALL="C")
GIT_ENV.pop("GIT_DIR", None)

TARGETS_MS = {"read_file": 1.0, "list_files": 0.5, "list_files_recursive": 5.0}
READ_RATIO_TARGET = 0.5
MEMORY_TARGET_MB = 30.0
START_TARGET_MS = 100.0


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def git(*args, cwd=None, **kw):
    return subprocess.run(["git", *args], cwd=cwd, env=GIT_ENV, check=True, **kw)


# ---- the binary -----------------------------------------------------------------------------

def build_binary(build_dir):
    """The Release binary, built (or brought up to date) in its own folder."""
    build_type = ""
    cache = os.path.join(build_dir, "CMakeCache.txt")
    if os.path.exists(cache):
        with open(cache) as f:
            for line in f:
                if line.startswith("CMAKE_BUILD_TYPE:"):
                    build_type = line.split("=", 1)[1].strip()
    if build_type != "Release" or not os.path.exists(os.path.join(build_dir, "Makefile")):
        log("configuring a Release build in %s" % os.path.relpath(build_dir, ROOT))
        subprocess.run(["cmake", "-S", ROOT, "-B", build_dir, "-DCMAKE_BUILD_TYPE=Release",
                        "-DRR_TESTS=OFF"], check=True, stdout=subprocess.DEVNULL)
    # The built-in secret detectors too: the server does not start without them.
    subprocess.run(["make", "-C", build_dir, "-j2", "--no-print-directory", "repo-reader",
                    "rr_secrets_plugin"], check=True, stdout=subprocess.DEVNULL)
    return os.path.join(build_dir, "repo-reader")


# ---- the repositories -----------------------------------------------------------------------

def generate(dest, commits, files, tags, big_kb=100, seed=2005):
    """A packed bare repository made by gen_repo.py through git fast-import, then repacked with a
    full delta search, as a server packs a clone. Reused when its parameters match."""
    params = dict(commits=commits, files=files, tags=tags, big_kb=big_kb, seed=seed,
                  gen_version=GEN_VERSION)
    stamp = os.path.join(dest, "bench-params.json")
    if os.path.exists(stamp):
        with open(stamp) as f:
            if json.load(f) == params:
                return dest
    tmp = dest + ".tmp"
    shutil.rmtree(tmp, ignore_errors=True)
    shutil.rmtree(dest, ignore_errors=True)
    os.makedirs(os.path.dirname(dest), exist_ok=True)
    git("init", "-q", "--bare", "-b", "main", tmp)
    t0 = time.monotonic()
    gen = subprocess.Popen([sys.executable, os.path.join(HERE, "gen_repo.py"), "--commits",
                            str(commits), "--files", str(files), "--tags", str(tags), "--big-kb",
                            str(big_kb), "--seed", str(seed)], stdout=subprocess.PIPE)
    git("fast-import", "--quiet", cwd=tmp, stdin=gen.stdout)
    gen.stdout.close()
    if gen.wait() != 0:
        raise SystemExit("gen_repo.py failed")
    t1 = time.monotonic()
    # fast-import deltifies a blob only against the blob written just before it; a clone's pack
    # is made with a full delta search (newest versions whole, older ones as deltas).
    git("-c", "pack.threads=2", "repack", "-a", "-d", "-f", "-q", "--window=10", "--depth=50",
        cwd=tmp)
    git("pack-refs", "--all", cwd=tmp)
    git("prune-packed", cwd=tmp)
    t2 = time.monotonic()
    with open(os.path.join(tmp, "bench-params.json"), "w") as f:
        json.dump(params, f)
    os.rename(tmp, dest)
    log("  %s: fast-import %.0f s, repack %.0f s" % (os.path.basename(dest), t1 - t0, t2 - t1))
    return dest


def read_or_none(path):
    try:
        with open(path) as f:
            return f.read()
    except OSError:
        return None


def make_many(big_repo, count=100):
    """count small repositories (copies of one), and count clones of the large one that share its
    objects (git clone --shared: their own refs, the objects through alternates)."""
    small = generate(os.path.join(OUT, "many", "template.git"), commits=60, files=80, tags=5,
                     big_kb=8, seed=7)
    smalls, clones = [], []
    with open(os.path.join(small, "bench-params.json")) as f:
        small_params = f.read()
    for i in range(count):
        d = os.path.join(OUT, "many", "small-%03d.git" % i)
        if read_or_none(os.path.join(d, "bench-params.json")) != small_params:
            shutil.rmtree(d, ignore_errors=True)
            shutil.copytree(small, d, symlinks=True)
        smalls.append(d)
        c = os.path.join(OUT, "many", "clone-%03d.git" % i)
        # A clone is reused only if it was made from this repository, as it is now.
        source = "%s\n%d\n" % (os.path.join(big_repo, "objects"),
                                 os.stat(os.path.join(big_repo, "packed-refs")).st_mtime_ns
                                 if os.path.exists(os.path.join(big_repo, "packed-refs")) else 0)
        if read_or_none(os.path.join(c, "bench-source")) != source:
            shutil.rmtree(c, ignore_errors=True)
            git("clone", "-q", "--bare", "--shared", big_repo, c)
            with open(os.path.join(c, "bench-source"), "w") as f:
                f.write(source)
        clones.append(c)
    return smalls, clones


def write_config(path, repos, secret_filter=True):
    with open(path, "w") as f:
        f.write("repos:\n")
        for name, p in repos:
            f.write("  - name: %s\n    path: %s\n" % (name, json.dumps(p)))
        f.write("limits:\n  answer_characters: 40000\n")
        # The calls measured here read no history: the history index (built in the background
        # for a repository without a commit-graph) would only compete with them for the CPU.
        f.write("history_index: false\n")
        if not secret_filter:
            f.write("secrets:\n  builtin_detectors: false\n")
    return path


# ---- the client -----------------------------------------------------------------------------

class Client:
    """A persistent MCP client over stdio: one JSON-RPC message per line."""

    def __init__(self, binary, config, log=None):
        """log: a file the server's log (stderr) is written to; none: dropped."""
        err = open(log, "wb") if log else subprocess.DEVNULL
        self.proc = subprocess.Popen([binary, "--config", config], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=err)
        if log:
            err.close()
        self.fd = self.proc.stdin.fileno()
        self.out = self.proc.stdout
        self.next_id = 0

    def send(self, obj):
        data = (json.dumps(obj, separators=(",", ":")) + "\n").encode()
        while data:
            data = data[os.write(self.fd, data):]

    def request_raw(self, method, params):
        """Sends a request; returns its raw answer line (checked only for its id)."""
        self.next_id += 1
        self.send({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params})
        line = self.out.readline()
        if not line:
            raise RuntimeError("repo-reader closed its output")
        if b'"id":%d,' % self.next_id not in line[:64]:
            raise RuntimeError("an answer to another request: %r" % line[:200])
        return line

    def initialize(self):
        line = self.request_raw("initialize", {
            "protocolVersion": "2025-06-18", "capabilities": {},
            "clientInfo": {"name": "repo-reader-bench", "version": "1"}})
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        return json.loads(line)

    def call(self, tool, arguments):
        return self.request_raw("tools/call", {"name": tool, "arguments": arguments})

    def close(self):
        try:
            self.proc.stdin.close()
        except OSError:
            pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def answer_text(line):
    msg = json.loads(line)
    if "error" in msg:
        raise RuntimeError("JSON-RPC error: %s" % msg["error"])
    res = msg["result"]
    text = res["content"][0]["text"]
    if res.get("isError"):
        raise RuntimeError("tool error: %s" % text[:300])
    return text


# ---- statistics -----------------------------------------------------------------------------

def median(xs):
    s = sorted(xs)
    n = len(s)
    return s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2


def p95(xs):
    s = sorted(xs)
    return s[min(len(s) - 1, max(0, -(-95 * len(s) // 100) - 1))]  # nearest rank


def ms(ns):
    return ns / 1e6


# ---- the measurements -----------------------------------------------------------------------

def run_git(repo, git_args):
    """One git command as a process spawn: (wall ns, CPU ns of the child, stdout)."""
    t0 = time.perf_counter_ns()
    p = subprocess.Popen(["git", "-C", repo, *git_args], env=GIT_ENV, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL)
    out = p.stdout.read()
    p.stdout.close()
    _, status, ru = os.wait4(p.pid, 0)
    t1 = time.perf_counter_ns()
    p.returncode = os.waitstatus_to_exitcode(status)
    if p.returncode != 0:
        raise RuntimeError("git %s failed" % " ".join(git_args))
    return t1 - t0, int((ru.ru_utime + ru.ru_stime) * 1e9), out


def cpu_ns(pid):
    """CPU time used so far by every thread of a process (scheduler accounting, in ns)."""
    total = 0
    for tid in os.listdir("/proc/%d/task" % pid):
        try:
            with open("/proc/%d/task/%s/schedstat" % (pid, tid)) as f:
                total += int(f.read().split()[0])
        except OSError:
            pass  # a thread that just ended
    return total


def measure_calls(binary, config, repo, commit, calls, warmup, block, only=None):
    ops = [
        ("read_file", "read_file", {"repo": "big", "path": BIG_FILE},
         ["cat-file", "-p", "%s:%s" % (commit, BIG_FILE)], "lines 1–"),
        ("list_files", "list_files", {"repo": "big"}, ["ls-tree", commit], "folders"),
        ("list_files_recursive", "list_files", {"repo": "big", "recursive": True},
         ["ls-tree", "-r", commit], "at any depth"),
        ("list_refs", "list_refs", {"repo": "big"}, ["for-each-ref"], "newest first"),
    ]
    if only:
        ops = [op for op in ops if op[0] in only]
    client = Client(binary, config)
    client.initialize()
    pid = client.proc.pid
    results = {}
    try:
        for key, tool, args, git_args, expect in ops:
            first = answer_text(client.call(tool, args))
            if expect not in first.split("\n", 1)[0]:
                raise RuntimeError("%s: unexpected answer: %s" % (key, first[:200]))
            for _ in range(warmup):
                client.call(tool, args)
                run_git(repo, git_args)
            ours, theirs, git_cpu = [], [], []
            server_cpu = 0
            answer_bytes = git_bytes = 0
            done = 0
            while done < calls:
                n = min(block, calls - done)
                c0 = cpu_ns(pid)
                for _ in range(n):
                    t0 = time.perf_counter_ns()
                    line = client.call(tool, args)
                    t1 = time.perf_counter_ns()
                    ours.append(t1 - t0)
                server_cpu += cpu_ns(pid) - c0
                answer_bytes = len(line)
                for _ in range(n):
                    wall, cpu, out = run_git(repo, git_args)
                    theirs.append(wall)
                    git_cpu.append(cpu)
                git_bytes = len(out)
                done += n
            answer_text(line)  # the last answer was a good one too
            results[key] = dict(
                median_ms=ms(median(ours)), p95_ms=ms(p95(ours)),
                cpu_ms=ms(server_cpu / calls),
                git_median_ms=ms(median(theirs)), git_p95_ms=ms(p95(theirs)),
                git_cpu_ms=ms(median(git_cpu)),
                ratio=median(ours) / median(theirs), calls=calls,
                answer_bytes=answer_bytes, git_output_bytes=git_bytes,
                git_command="git " + " ".join(git_args).replace(commit, "<commit>"))
            log("  %-22s ours %.3f ms (p95 %.3f, CPU %.3f)  git %.3f ms (CPU %.3f)" % (
                key, results[key]["median_ms"], results[key]["p95_ms"], results[key]["cpu_ms"],
                results[key]["git_median_ms"], results[key]["git_cpu_ms"]))
    finally:
        client.close()
    return results


def measure_start(binary, config, runs):
    times, cpus = [], []
    for _ in range(runs):
        t0 = time.perf_counter_ns()
        client = Client(binary, config)
        client.initialize()
        line = client.call("read_file", {"repo": "big", "path": BIG_FILE})
        t1 = time.perf_counter_ns()
        cpus.append(cpu_ns(client.proc.pid))
        answer_text(line)
        client.close()
        times.append(t1 - t0)
    return dict(median_ms=ms(median(times)), p95_ms=ms(p95(times)), cpu_ms=ms(median(cpus)),
                runs=runs)


def memory_kb(pid):
    """VmRSS, and its anonymous and file-backed parts, from /proc/PID/status (kB)."""
    out = {}
    with open("/proc/%d/status" % pid) as f:
        for line in f:
            key = line.split(":", 1)[0]
            if key in ("VmRSS", "RssAnon", "RssFile", "RssShmem"):
                out[key] = int(line.split()[1])
    return out


def measure_memory(binary, config, runs=3):
    after_init, after_list = [], []
    list_ms = []
    for _ in range(runs):
        client = Client(binary, config)
        client.initialize()
        time.sleep(0.2)  # let every thread settle
        after_init.append(memory_kb(client.proc.pid))
        t0 = time.perf_counter_ns()
        text = answer_text(client.call("list_repos", {}))
        list_ms.append(ms(time.perf_counter_ns() - t0))
        if "100 repositories" not in text.split("\n", 1)[0]:
            raise RuntimeError("list_repos: unexpected answer: %s" % text[:200])
        time.sleep(0.2)
        after_list.append(memory_kb(client.proc.pid))
        client.close()

    def mb(samples, key):
        return median([s.get(key, 0) for s in samples]) / 1024

    return dict(after_initialize_mb=mb(after_init, "VmRSS"),
                after_initialize_anon_mb=mb(after_init, "RssAnon"),
                after_initialize_file_mb=mb(after_init, "RssFile"),
                after_list_repos_mb=mb(after_list, "VmRSS"),
                after_list_repos_anon_mb=mb(after_list, "RssAnon"),
                after_list_repos_file_mb=mb(after_list, "RssFile"),
                list_repos_ms=median(list_ms), runs=runs)


# ---- report ---------------------------------------------------------------------------------

def machine():
    model = ""
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    model = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    libgit2 = subprocess.run(["pkg-config", "--modversion", "libgit2"], capture_output=True,
                             text=True).stdout.strip()
    return dict(cores=os.cpu_count(), cpu=model, kernel=platform.release(),
                git=subprocess.run(["git", "--version"], capture_output=True,
                                   text=True).stdout.strip(),
                libgit2=libgit2, python=platform.python_version(), load=loadavg(),
                date=time.strftime("%Y-%m-%d %H:%M %Z"))


def loadavg():
    try:
        with open("/proc/loadavg") as f:
            return " ".join(f.read().split()[:3])
    except OSError:
        return "?"


def verdict(ok):
    return "PASS" if ok else "MISS"


def table(res):
    """The results as a Markdown table, each figure beside its target."""
    c = res["calls"]
    rows = []
    labels = {
        "read_file": "read_file, the ~100 KB file",
        "list_files": "list_files, root",
        "list_files_recursive": "list_files, root, recursive",
        "list_refs": "list_refs, all",
        "read_file_filter_off": "read_file, the same, secret filter off",
    }
    for key in ("read_file", "read_file_filter_off", "list_files", "list_files_recursive",
                "list_refs"):
        if key not in c:
            continue
        r = c[key]
        if key == "read_file":
            target = "≤ %.1f ms and ≤ %.1f× git" % (TARGETS_MS[key], READ_RATIO_TARGET)
            ok = verdict(r["median_ms"] <= TARGETS_MS[key] and r["ratio"] <= READ_RATIO_TARGET)
        elif key in TARGETS_MS:
            target = "≤ %s ms" % TARGETS_MS[key]
            ok = verdict(r["median_ms"] <= TARGETS_MS[key])
        else:
            target, ok = "—", "—"
        rows.append("| %s | %.3f ms | %.3f ms | %.3f ms | `%s` | %.3f ms | %.3f ms | %.3f | %s | "
                    "%s |" % (labels[key], r["median_ms"], r["p95_ms"], r["cpu_ms"],
                              r["git_command"], r["git_median_ms"], r["git_cpu_ms"], r["ratio"],
                              target, ok))
    s = res["start"]
    rows.append("| start to first answer (%d runs) | %.1f ms | %.1f ms | %.1f ms | — | — | — | — "
                "| ≤ %d ms | %s |" % (s["runs"], s["median_ms"], s["p95_ms"], s["cpu_ms"],
                                      START_TARGET_MS, verdict(s["median_ms"] <= START_TARGET_MS)))
    for key, label in (("small", "100 small repositories"),
                       ("clones", "100 clones of the large repository")):
        m = res["memory"].get(key)
        if not m:
            continue
        for when, field in (("after initialize", "after_initialize"),
                            ("after one list_repos (%.0f ms)" % m["list_repos_ms"],
                             "after_list_repos")):
            rows.append("| idle memory, %s, %s | %.1f MB | — | — | — | — | — | — | ≤ %d MB | %s |"
                        % (label, when, m[field + "_mb"], MEMORY_TARGET_MB,
                           verdict(m[field + "_mb"] <= MEMORY_TARGET_MB)))
    head = ("| measure | median | p95 | server CPU per call | git command | git's median "
            "| git's CPU | ours / git | target | |\n"
            "| --- | ---: | ---: | ---: | --- | ---: | ---: | ---: | --- | --- |")
    notes = []
    for key, r in c.items():
        notes.append("%s: answer line %d bytes; git printed %d bytes; git's p95 %.3f ms" % (
            key, r["answer_bytes"], r["git_output_bytes"], r["git_p95_ms"]))
    for key, m in res["memory"].items():
        notes.append("memory, %s: after initialize %.1f MB anonymous + %.1f MB file-backed; after "
                     "list_repos %.1f MB anonymous + %.1f MB file-backed" % (
                         key, m["after_initialize_anon_mb"], m["after_initialize_file_mb"],
                         m["after_list_repos_anon_mb"], m["after_list_repos_file_mb"]))
    return head + "\n" + "\n".join(rows) + "\n\n" + "\n".join(notes)


def main():
    global BIG_FILE
    ap = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        epilog="Generated repositories are cached under bench/out/ and reused.")
    ap.add_argument("--size", choices=sorted(SIZES), default="full",
                    help="full: 80,000 commits, 5,000 files, 1,000 tags (a few minutes to "
                         "build the first time); small: 8,000 commits, 1,000 files, 100 tags")
    ap.add_argument("--repo", help="measure this existing repository instead (it must hold "
                                   "%s at its default branch, or give --file)" % BIG_FILE)
    ap.add_argument("--file", default=BIG_FILE, help="the file read_file reads")
    ap.add_argument("--binary", help="use this repo-reader binary instead of building one")
    ap.add_argument("--build-dir", default=os.path.join(ROOT, "build-bench"),
                    help="where the Release binary is built (default: build-bench/)")
    ap.add_argument("--calls", type=int, default=300, help="timed calls per measure")
    ap.add_argument("--warmup", type=int, default=20, help="untimed calls before each measure")
    ap.add_argument("--block", type=int, default=25,
                    help="ours and git's calls alternate in blocks of this many (default 25), so "
                         "both see the same machine; 1 puts a git process between every two "
                         "of our calls")
    ap.add_argument("--starts", type=int, default=20, help="runs of start to first answer")
    ap.add_argument("--no-memory", action="store_true", help="skip the idle memory measures")
    ap.add_argument("--json", help="also write the results to this file")
    ap.add_argument("--wait-load", type=float, metavar="LOAD",
                    help="on a shared machine: before measuring, wait (at most --wait-max "
                         "seconds) until the 1-minute load average is below LOAD")
    ap.add_argument("--wait-max", type=int, default=600)
    args = ap.parse_args()
    BIG_FILE = args.file

    binary = os.path.abspath(args.binary) if args.binary else build_binary(args.build_dir)
    if args.repo:
        repo = os.path.abspath(args.repo)
    else:
        log("repository (%s): %s" % (args.size, ", ".join(
            "%s %s" % (v, k) for k, v in SIZES[args.size].items())))
        repo = generate(os.path.join(OUT, "repo-%s.git" % args.size), **SIZES[args.size])
    commit = git("rev-parse", "HEAD^{commit}", cwd=repo, capture_output=True,
                 text=True).stdout.strip()
    shape = dict(
        commits=int(git("rev-list", "--count", "--all", cwd=repo, capture_output=True,
                        text=True).stdout),
        files=len(git("ls-tree", "-r", "--name-only", commit, cwd=repo,
                      capture_output=True).stdout.splitlines()),
        refs=len(git("for-each-ref", cwd=repo, capture_output=True).stdout.splitlines()),
        file_bytes=int(git("cat-file", "-s", "%s:%s" % (commit, BIG_FILE), cwd=repo,
                           capture_output=True, text=True).stdout),
        pack_mb=sum(os.path.getsize(os.path.join(repo, "objects", "pack", f))
                    for f in os.listdir(os.path.join(repo, "objects", "pack"))) / 2**20)
    log("  %(commits)d commits, %(files)d files, %(refs)d refs, the file %(file_bytes)d bytes, "
        "packs %(pack_mb).0f MB" % shape)

    if args.wait_load:
        deadline = time.monotonic() + args.wait_max
        while float(loadavg().split()[0]) >= args.wait_load and time.monotonic() < deadline:
            time.sleep(5)
        log("load average %s" % loadavg())
    work = tempfile.mkdtemp(prefix="repo-reader-bench-")
    try:
        config = write_config(os.path.join(work, "big.yaml"), [("big", repo)])
        res = {"machine": machine(), "repository": shape, "calls": {}, "memory": {}}
        log("calls (%d each, in blocks of %d alternating with git's):" % (args.calls, args.block))
        res["calls"] = measure_calls(binary, config, repo, commit, args.calls, args.warmup,
                                     args.block)
        # The same read with the secret filter turned off: what the filter costs end to end.
        log("read_file with the secret filter off:")
        off = write_config(os.path.join(work, "big-nofilter.yaml"), [("big", repo)],
                           secret_filter=False)
        res["calls"]["read_file_filter_off"] = measure_calls(
            binary, off, repo, commit, args.calls, args.warmup, args.block,
            only=("read_file",))["read_file"]
        log("start to first answer:")
        res["start"] = measure_start(binary, config, args.starts)
        log("  %.1f ms" % res["start"]["median_ms"])
        if not args.no_memory:
            log("idle memory:")
            smalls, clones = make_many(repo)
            for key, dirs in (("small", smalls), ("clones", clones)):
                cfg = write_config(os.path.join(work, key + ".yaml"),
                                   [("r%03d" % i, d) for i, d in enumerate(dirs)])
                res["memory"][key] = measure_memory(binary, cfg)
                log("  %s: %.1f MB, after list_repos %.1f MB" % (
                    key, res["memory"][key]["after_initialize_mb"],
                    res["memory"][key]["after_list_repos_mb"]))
    finally:
        shutil.rmtree(work, ignore_errors=True)

    m = res["machine"]
    print("repo-reader benchmark — %s" % m["date"])
    print("machine: %d cores, %s, Linux %s; %s, libgit2 %s, Python %s" % (
        m["cores"], m["cpu"], m["kernel"], m["git"], m["libgit2"], m["python"]))
    print("load average (1, 5, 15 min): %s at the start, %s at the end" % (m["load"], loadavg()))
    print("repository: %(commits)d commits, %(files)d files at the default branch, %(refs)d "
          "refs, read_file's file %(file_bytes)d bytes, packs %(pack_mb).0f MB" % shape)
    print("calls: %d timed per measure after %d untimed, ours and git's alternating in blocks "
          "of %d\n" % (args.calls, args.warmup, args.block))
    print(table(res))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(res, f, indent=2)


if __name__ == "__main__":
    main()
