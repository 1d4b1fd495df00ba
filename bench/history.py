#!/usr/bin/env python3
"""The history benchmark: log, show_commit, diff (since_fork), blame and find_commits, end to end
over stdio, beside the git command line doing the same job in the same run (medians of several
calls, ours and git's alternating). Not a test; never run in CI.

    bench/history.sh                         the generated repository (bench/run.sh builds it)
    bench/history.sh --repo PATH --log-file F --blame-file F --base A --head B --find PAT

The repository is measured three ways: as it is with the server's history index off (every
commit read from the repository); with the server's own history index (built in a temporary
cache folder before measuring); and from a copy with git's commit-graph and changed-path Bloom
filters (`git commit-graph write --reachable --changed-paths`), as current git keeps one (the
copy lives under bench/out/ and is made once). The repository itself is never written.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench  # noqa: E402


def git_out(repo, *args):
    return subprocess.run(["git", "-C", repo, *args], env=bench.GIT_ENV, check=True,
                          capture_output=True, text=True).stdout


def with_graph(repo):
    """A bare copy of `repo` with a commit-graph and Bloom filters, made once under bench/out/."""
    name = os.path.basename(os.path.normpath(repo)).replace(".git", "")
    dest = os.path.join(bench.OUT, "history-%s-graph.git" % name)
    stamp = os.path.join(dest, "bench-source.json")
    head = git_out(repo, "rev-parse", "HEAD").strip()
    want = {"source": os.path.abspath(repo), "head": head}
    if os.path.exists(stamp):
        with open(stamp) as f:
            if json.load(f) == want:
                return dest
    shutil.rmtree(dest, ignore_errors=True)
    os.makedirs(bench.OUT, exist_ok=True)
    t0 = time.monotonic()
    subprocess.run(["git", "clone", "-q", "--bare", "--no-local", repo, dest], env=bench.GIT_ENV,
                   check=True)
    t1 = time.monotonic()
    subprocess.run(["git", "-C", dest, "commit-graph", "write", "--reachable", "--changed-paths"],
                   env=bench.GIT_ENV, check=True, stderr=subprocess.DEVNULL)
    t2 = time.monotonic()
    bench.log("  copy with a commit-graph: clone %.0f s, commit-graph write --changed-paths %.0f s"
              % (t1 - t0, t2 - t1))
    with open(stamp, "w") as f:
        json.dump(want, f)
    return dest


def timed_git(repo, commands):
    """Runs git commands one after another (each may depend on the last one's output, through
    a function); returns total wall ns."""
    total = 0
    out = b""
    for cmd in commands:
        argv = cmd(out) if callable(cmd) else cmd
        for one in (argv if argv and isinstance(argv[0], list) else [argv]):
            wall, _, out = bench.run_git(repo, one)
            total += wall
    return total


def ops_for(args, repo):
    fmt = "--format=%h %cd %an %s"
    date = "--date=short"
    # find_commits: git log --all, then branch --contains and tag --contains for each result.
    find = [["log", "--all", "-i", "-E", "--grep=" + args.find, "-n", str(args.find_count),
             "--format=%H"],
            lambda out: [[c, "--contains", h] for h in out.decode().split()
                         for c in ("branch", "tag")] or [["version"]]]
    return [
        ("log, 30 commits", "log", {"max_count": 30}, [["log", "-30", fmt, date]]),
        ("log of a file", "log", {"max_count": 30, "path": args.log_file},
         [["log", "-30", fmt, date, "--", args.log_file]]),
        ("log of a folder", "log", {"max_count": 30, "path": args.log_folder},
         [["log", "-30", fmt, date, "--", args.log_folder]]),
        # A filter few commits pass: the whole history is walked to say so.
        ("log by an author of no commit", "log", {"max_count": 30, "author": args.author},
         [["log", "-30", "-i", "-E", "--author=" + args.author, fmt, date]]),
        ("log by a rare message", "log", {"max_count": 30, "message": args.grep},
         [["log", "-30", "-i", "-E", "--grep=" + args.grep, fmt, date]]),
        ("show_commit", "show_commit", {"commit": args.commit},
         [["show", "--no-ext-diff", "--no-textconv", "--numstat", "-p", "--format=fuller",
           args.commit]]),
        ("diff", "diff", {"base": args.base, "head": args.head},
         [["diff", "--no-ext-diff", "--no-textconv", "--numstat", "-p", args.base, args.head]]),
        ("diff, files only", "diff", {"base": args.base, "head": args.head, "files_only": True},
         [["diff", "--numstat", args.base, args.head]]),
        ("diff since_fork", "diff", {"base": args.fork_base, "head": args.fork_head,
                                     "since_fork": True, "files_only": True},
         [["merge-base", args.fork_base, args.fork_head],
          lambda out: ["diff", "--numstat", out.decode().strip(), args.fork_head]]),
        ("blame", "blame", {"path": args.blame_file, "max_lines": 100000},
         [["blame", "--porcelain", "--", args.blame_file]]),
        ("find_commits", "find_commits", {"message": args.find, "max_count": args.find_count},
         find),
    ]


def measure(binary, config, repo, ops, calls, only_tools, only=()):
    client = bench.Client(binary, config)
    client.initialize()
    results = {}
    try:
        for label, tool, targs, gitcmds in ops:
            if tool not in only_tools or (only and not any(o in label for o in only)):
                continue
            targs = dict(targs, **({"repos": "r"} if tool == "find_commits" else {"repo": "r"}))
            first = bench.answer_text(client.call(tool, targs))
            timed_git(repo, gitcmds)
            ours, theirs = [], []
            for _ in range(calls):
                t0 = time.perf_counter_ns()
                bench.answer_text(client.call(tool, targs))
                ours.append(time.perf_counter_ns() - t0)
                theirs.append(timed_git(repo, gitcmds))
            o, g = bench.median(ours), bench.median(theirs)
            results[label] = dict(ours_ms=o / 1e6, git_ms=g / 1e6, ratio=o / g,
                                  first_line=first.split("\n", 1)[0][:120])
            bench.log("  %-20s ours %9.2f ms  git %9.2f ms  %.2f×" % (label, o / 1e6, g / 1e6,
                                                                      o / g))
    finally:
        client.close()
    return results


def tools_of(binary, config):
    client = bench.Client(binary, config)
    client.initialize()
    try:
        line = client.request_raw("tools/list", {})
        return {t["name"] for t in json.loads(line)["result"]["tools"]}
    finally:
        client.close()


def write_config(path, repo, cache=None):
    with open(path, "w") as f:
        f.write("repos:\n  - name: r\n    path: %s\n" % json.dumps(repo))
        f.write("limits:\n  answer_characters: 40000\n")
        if cache:
            f.write("cache_folder: %s\nhistory_index: true\n" % json.dumps(cache))
        else:
            f.write("history_index: false\n")
    return path


def build_index(binary, config, wait_max=1800):
    """Starts the server and waits until it says its history index of the repository is built."""
    t0 = time.monotonic()
    proc = subprocess.Popen([binary, "--config", config], stdin=subprocess.PIPE,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    proc.stdin.write(json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
        "protocolVersion": "2025-06-18", "capabilities": {},
        "clientInfo": {"name": "repo-reader-bench", "version": "1"}}}) + "\n")
    proc.stdin.flush()
    try:
        for line in proc.stderr:
            if "history index of `r`" in line:
                bench.log("  " + line.strip())
                break
            if time.monotonic() - t0 > wait_max:
                raise SystemExit("the history index was not built in %d s" % wait_max)
    finally:
        proc.stdin.close()
        proc.wait(timeout=60)
    bench.log("  the server's history index built in %.0f s" % (time.monotonic() - t0))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repo", help="the repository (default: the generated one, --size)")
    ap.add_argument("--size", choices=sorted(bench.SIZES), default="full")
    ap.add_argument("--binary", help="a repo-reader binary (default: build one, as bench/run.sh)")
    ap.add_argument("--build-dir", default=os.path.join(bench.ROOT, "build-bench"))
    ap.add_argument("--calls", type=int, default=7, help="timed calls per measure (median)")
    ap.add_argument("--log-file", default=None, help="a rarely changed file for log")
    ap.add_argument("--log-folder", default=None, help="a folder for log")
    ap.add_argument("--blame-file", default=bench.BIG_FILE, help="the file blame reads")
    ap.add_argument("--commit", default="HEAD~10", help="the commit show_commit shows")
    ap.add_argument("--base", default=None, help="diff's base (default: the 2nd newest tag)")
    ap.add_argument("--head", default=None, help="diff's head (default: the newest tag)")
    ap.add_argument("--fork-base", default=None,
                    help="since_fork's base (default: the default branch)")
    ap.add_argument("--fork-head", default=None,
                    help="since_fork's head (default: the oldest other branch)")
    ap.add_argument("--find", default="fix", help="find_commits' message pattern")
    ap.add_argument("--find-count", type=int, default=10)
    ap.add_argument("--author", default="no-such-author",
                    help="log's author pattern, best one no commit matches")
    ap.add_argument("--grep", default="^Revert \"",
                    help="log's message pattern, best one few commits match")
    ap.add_argument("--only", action="append", default=[],
                    help="measure only those whose label holds this text (repeatable)")
    ap.add_argument("--no-plain", action="store_true",
                    help="measure only the copy with a commit-graph")
    ap.add_argument("--json", help="also write the results to this file")
    args = ap.parse_args()

    binary = os.path.abspath(args.binary) if args.binary else bench.build_binary(args.build_dir)
    if args.repo:
        repo = os.path.abspath(args.repo)
    else:
        repo = bench.generate(os.path.join(bench.OUT, "repo-%s.git" % args.size),
                              **bench.SIZES[args.size])
    tags = git_out(repo, "for-each-ref", "--sort=-creatordate", "--format=%(refname:short)",
                   "refs/tags").split()
    branches = git_out(repo, "for-each-ref", "--sort=creatordate", "--format=%(refname:short)",
                       "refs/heads").split()
    default = git_out(repo, "symbolic-ref", "--short", "HEAD").strip()
    args.head = args.head or tags[0]
    args.base = args.base or tags[1]
    args.fork_base = args.fork_base or default
    args.fork_head = args.fork_head or next(b for b in branches if b != default)
    if not args.log_file or not args.log_folder:
        # The file changed least often among the first 2,000 files, and the largest folder.
        files = git_out(repo, "ls-tree", "-r", "--name-only", "HEAD").split("\n")
        folders = {}
        for f in files:
            if "/" in f:
                top = f.split("/", 1)[0]
                folders[top] = folders.get(top, 0) + 1
        args.log_folder = args.log_folder or max(folders, key=folders.get)
        args.log_file = args.log_file or files[len(files) // 3]
    bench.log("repository %s: log file %s, folder %s, blame %s, show %s, diff %s..%s, "
              "since_fork %s...%s" % (repo, args.log_file, args.log_folder, args.blame_file,
                                      args.commit, args.base, args.head, args.fork_base,
                                      args.fork_head))
    work = bench.tempfile.mkdtemp(prefix="repo-reader-history-")
    res = {"machine": bench.machine(), "runs": {}}
    try:
        runs = []
        if not args.no_plain:
            runs.append(("as it is, no history index", repo,
                         write_config(os.path.join(work, "plain.yaml"), repo)))
            cache = os.path.join(work, "cache")
            indexed = write_config(os.path.join(work, "indexed.yaml"), repo, cache)
            build_index(binary, indexed)
            runs.append(("with the server's history index", repo, indexed))
        graph_copy = with_graph(repo)
        runs.append(("with git's commit-graph and Bloom filters", graph_copy,
                     write_config(os.path.join(work, "graph.yaml"), graph_copy)))
        for label, r, config in runs:
            have = tools_of(binary, config)
            bench.log("%s (%s):" % (label, r))
            res["runs"][label] = measure(binary, config, r, ops_for(args, r), args.calls, have,
                                         args.only)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    m = res["machine"]
    print("repo-reader history benchmark — %s" % m["date"])
    print("machine: %d cores, %s; %s, libgit2 %s" % (m["cores"], m["cpu"], m["git"],
                                                     m["libgit2"]))
    print("medians of %d calls each, ours and git's alternating\n" % args.calls)
    for label, rows in res["runs"].items():
        print("%s:\n\n| measure | ours | git | ours / git |\n| --- | ---: | ---: | ---: |" % label)
        for k, v in rows.items():
            print("| %s | %.2f ms | %.2f ms | %.2f |" % (k, v["ours_ms"], v["git_ms"], v["ratio"]))
        print()
    if args.json:
        with open(args.json, "w") as f:
            json.dump(res, f, indent=2)


if __name__ == "__main__":
    main()
