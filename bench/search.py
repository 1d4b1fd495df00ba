#!/usr/bin/env python3
"""The search benchmark: grep, search and find_files end to end over stdio, beside the git
command line doing the same job in the same run (medians of several calls, ours and git's
alternating). Not a test; never run in CI.

    bench/search.sh                          the generated repository (bench/run.sh builds it)
    bench/search.sh --repo PATH              another one, e.g. a bare clone of git's own
    bench/search.sh --threads 2 --glob 'builtin/*.c'

  grep (one repository)     a plain string, a regular expression and an ignore-case string at
                            the default branch, and the plain string at an old tag
                            vs  git grep -n -I [-E] [-i] --threads N -e PATTERN <ref>
  search (20 repositories)  the plain string over the default branches of 20 copies
                            vs  the sum of git grep -n -I --threads N -e PATTERN HEAD over them
  find_files (20)           a glob across the same 20
                            vs  the sum of git ls-tree -r --name-only HEAD | grep -E <the glob>

The 20 copies are bare clones (`git clone --bare --no-local`, so each has objects of its own),
made once under bench/out/ and reused while the repository's HEAD is unchanged; the repository
given is only read. The server and every git command run pinned to the same --threads CPUs
(taskset), and git grep is given --threads too, so both sides have the same cores. A measure
whose tool the server does not list (tools/list) is skipped. Each answer's count is checked
against git's where the answer states one (find_files).
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench  # noqa: E402
import history  # noqa: E402


def pinned(threads):
    """The prefix that runs a command on the first `threads` CPUs (none when all are allowed)."""
    if threads >= (os.cpu_count() or 1) or not shutil.which("taskset"):
        return []
    return ["taskset", "-c", "0-%d" % (threads - 1)]


def run(argv, cwd=None, stdin_from=None):
    """A process spawn: (wall ns, stdout). Exit status 1 (git grep's and grep's "nothing
    found") is not a failure."""
    t0 = time.perf_counter_ns()
    p = subprocess.Popen(argv, cwd=cwd, env=bench.GIT_ENV, stdout=subprocess.PIPE,
                         stderr=subprocess.DEVNULL)
    out = p.stdout.read()
    p.wait()
    t1 = time.perf_counter_ns()
    if p.returncode not in (0, 1):
        raise RuntimeError("%s failed (%d)" % (" ".join(argv), p.returncode))
    return t1 - t0, out


def ls_tree_filtered(prefix, repo, regex):
    """git ls-tree -r --name-only HEAD piped into grep -E: (wall ns, matching lines)."""
    t0 = time.perf_counter_ns()
    g = subprocess.Popen(prefix + ["git", "-C", repo, "ls-tree", "-r", "--name-only", "HEAD"],
                         env=bench.GIT_ENV, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    f = subprocess.Popen(prefix + ["grep", "-E", "-e", regex], stdin=g.stdout,
                         stdout=subprocess.PIPE, env=bench.GIT_ENV)
    g.stdout.close()
    out = f.stdout.read()
    f.wait()
    g.wait()
    t1 = time.perf_counter_ns()
    if g.returncode != 0 or f.returncode not in (0, 1):
        raise RuntimeError("git ls-tree | grep -E failed in %s" % repo)
    return t1 - t0, out.count(b"\n")


def glob_to_ere(pattern):
    """find_files' glob (docs/tools.md) as a POSIX extended regular expression over the paths
    git ls-tree prints."""
    anchored = pattern.startswith("/") or "/" in pattern.rstrip("/")
    parts = pattern.strip("/").split("/")

    def lit(c):
        return "\\" + c if c in ".[]()*+?{}|^$\\" else c

    def part_re(p):
        out, i = "", 0
        while i < len(p):
            c = p[i]
            if c == "*":
                out += "[^/]*"
            elif c == "?":
                out += "[^/]"
            elif c == "[":
                j = p.index("]", i + 2 if p[i + 1:i + 2] in ("!", "^") else i + 1)
                body = p[i + 1:j]
                if body.startswith("!"):
                    body = "^" + body[1:]
                out += "[" + body + "]"
                i = j
            elif c == "\\" and i + 1 < len(p):
                i += 1
                out += lit(p[i])
            else:
                out += lit(c)
            i += 1
        return out

    if not anchored:
        return "(^|/)" + part_re(parts[0]) + "$"
    out, need_sep = "^", False
    for i, p in enumerate(parts):
        sep = "/" if need_sep else ""
        if p == "**" and i == len(parts) - 1:
            out += sep + ".+"  # every file below: never a file of the folder's name
        elif p == "**":
            out += sep + "(.*/)?"
            need_sep = False
        else:
            out += sep + part_re(p)
            need_sep = True
    return out + "$"


def clones(repo, count):
    """`count` bare clones of `repo` under bench/out/, made once (git clone --bare --no-local)."""
    name = os.path.basename(os.path.normpath(repo)).replace(".git", "")
    head = history.git_out(repo, "rev-parse", "HEAD").strip()
    want = json.dumps({"source": os.path.abspath(repo), "head": head})
    out = []
    for i in range(count):
        dest = os.path.join(bench.OUT, "search-%s-%02d.git" % (name, i))
        if bench.read_or_none(os.path.join(dest, "bench-source.json")) != want:
            shutil.rmtree(dest, ignore_errors=True)
            os.makedirs(bench.OUT, exist_ok=True)
            t0 = time.monotonic()
            subprocess.run(["git", "clone", "-q", "--bare", "--no-local", repo, dest],
                           env=bench.GIT_ENV, check=True)
            with open(os.path.join(dest, "bench-source.json"), "w") as f:
                f.write(want)
            bench.log("  clone %d of %d: %.0f s" % (i + 1, count, time.monotonic() - t0))
        out.append(dest)
    return out


def write_config(path, repos):
    with open(path, "w") as f:
        f.write("repos:\n")
        for name, p in repos:
            f.write("  - name: %s\n    path: %s\n" % (name, json.dumps(p)))
        f.write("limits:\n  answer_characters: 40000\nhistory_index: false\n")
    return path


def measure(binary, config, ops, calls, have):
    client = bench.Client(binary, config)
    client.initialize()
    results = {}
    try:
        for label, tool, targs, theirs_fn, check in ops:
            if tool not in have:
                bench.log("  %-28s skipped: the server has no `%s` tool" % (label, tool))
                continue
            first = bench.answer_text(client.call(tool, targs))
            git_first = theirs_fn()
            if check:
                check(first, git_first[1])
            ours, theirs = [], []
            for _ in range(calls):
                t0 = time.perf_counter_ns()
                bench.answer_text(client.call(tool, targs))
                ours.append(time.perf_counter_ns() - t0)
                theirs.append(theirs_fn()[0])
            o, g = bench.median(ours), bench.median(theirs)
            results[label] = dict(ours_ms=o / 1e6, git_ms=g / 1e6, ratio=o / g,
                                  first_line=first.split("\n", 1)[0][:160])
            bench.log("  %-28s ours %9.2f ms  git %9.2f ms  %.2f×" % (label, o / 1e6, g / 1e6,
                                                                      o / g))
    finally:
        client.close()
    return results


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--repo", help="the repository (default: the generated one, --size)")
    ap.add_argument("--size", choices=sorted(bench.SIZES), default="full")
    ap.add_argument("--binary", help="a repo-reader binary (default: build one, as bench/run.sh)")
    ap.add_argument("--build-dir", default=os.path.join(bench.ROOT, "build-bench"))
    ap.add_argument("--calls", type=int, default=7, help="timed calls per measure (median)")
    ap.add_argument("--threads", type=int, default=os.cpu_count() or 1,
                    help="CPUs for the server and for git (git grep --threads); default all")
    ap.add_argument("--many", type=int, default=20, help="repositories for search, find_files")
    ap.add_argument("--plain", default="strbuf_release", help="the plain string")
    ap.add_argument("--regex", default="str(buf|cmp)_[a-z]+\\(",
                    help="the regular expression (POSIX extended)")
    ap.add_argument("--icase", default="XMALLOC", help="the ignore-case string")
    ap.add_argument("--old-tag", help="the old tag grep reads (default: a third of the way "
                                      "through the tags, oldest first)")
    ap.add_argument("--glob", default="**/*.c", help="find_files' pattern")
    ap.add_argument("--json", help="also write the results to this file")
    args = ap.parse_args()

    binary = os.path.abspath(args.binary) if args.binary else bench.build_binary(args.build_dir)
    if args.repo:
        repo = os.path.abspath(args.repo)
    else:
        repo = bench.generate(os.path.join(bench.OUT, "repo-%s.git" % args.size),
                              **bench.SIZES[args.size])
    if not args.old_tag:
        tags = history.git_out(repo, "for-each-ref", "--sort=creatordate",
                               "--format=%(refname:short)", "refs/tags").split()
        args.old_tag = tags[len(tags) // 3] if tags else "HEAD"
    prefix = pinned(args.threads)
    t = str(args.threads)
    ere = glob_to_ere(args.glob)
    bench.log("repository %s; %d CPUs (%s); old tag %s; glob %s (grep -E '%s')" % (
        repo, args.threads, " ".join(prefix) or "all", args.old_tag, args.glob, ere))
    many = clones(repo, args.many)

    def git_grep(r, ref, *opts):
        return lambda: run(prefix + ["git", "-C", r, "grep", "-n", "-I", "--threads", t, *opts,
                                     "-e", ops_pattern(opts), ref])

    def ops_pattern(opts):
        return args.regex if "-E" in opts else args.icase if "-i" in opts else args.plain

    def summed(fns):
        def go():
            total, out = 0, b""
            for fn in fns:
                wall, o = fn()
                total += wall
                out += o if isinstance(o, bytes) else b""
            return total, out
        return go

    def sum_ls_tree():
        total = count = 0
        for r in many:
            wall, n = ls_tree_filtered(prefix, r, ere)
            total += wall
            count += n
        return total, count

    def check_count(answer, count):
        m = re.search(r": ([0-9,]+) files? in", answer.split("\n", 1)[0])
        ours = int(m.group(1).replace(",", "")) if m else -1
        if ours != count:
            raise RuntimeError("find_files found %d files, git ls-tree | grep -E %d: %s" % (
                ours, count, answer.split("\n", 1)[0]))

    one = {"repo": "r"}
    twenty = ",".join("c%02d" % i for i in range(len(many)))
    ops = [
        ("grep, plain string", "grep", dict(one, pattern=args.plain),
         git_grep(repo, "HEAD"), None),
        ("grep, regex", "grep", dict(one, pattern=args.regex, regex=True),
         git_grep(repo, "HEAD", "-E"), None),
        ("grep, ignore case", "grep", dict(one, pattern=args.icase, ignore_case=True),
         git_grep(repo, "HEAD", "-i"), None),
        ("grep, plain, old tag", "grep", dict(one, pattern=args.plain, ref=args.old_tag),
         git_grep(repo, args.old_tag), None),
        ("search, %d repositories" % len(many), "search", {"pattern": args.plain, "repos": twenty},
         summed([git_grep(r, "HEAD") for r in many]), None),
        ("find_files, %d repositories" % len(many), "find_files", {"pattern": args.glob, "repos": twenty},
         sum_ls_tree, check_count),
    ]
    work = tempfile.mkdtemp(prefix="repo-reader-search-")
    try:
        config = write_config(os.path.join(work, "search.yaml"),
                              [("r", repo)] + [("c%02d" % i, p) for i, p in enumerate(many)])
        have = history.tools_of(binary, config)
        # The server pinned as git is: a wrapper the client starts.
        pinned_binary = binary
        if prefix:
            pinned_binary = os.path.join(work, "pinned-repo-reader")
            with open(pinned_binary, "w") as f:
                f.write("#!/bin/sh\nexec %s %s \"$@\"\n" % (" ".join(prefix), json.dumps(binary)))
            os.chmod(pinned_binary, 0o755)
        res = {"machine": bench.machine(), "repo": repo, "threads": args.threads,
               "results": measure(pinned_binary, config, ops, args.calls, have)}
    finally:
        shutil.rmtree(work, ignore_errors=True)
    m = res["machine"]
    print("repo-reader search benchmark — %s" % m["date"])
    print("machine: %d cores, %s; %s, libgit2 %s; %d CPUs for each side" % (
        m["cores"], m["cpu"], m["git"], m["libgit2"], args.threads))
    print("repository: %s; medians of %d calls each, ours and git's alternating\n" % (
        os.path.basename(repo), args.calls))
    print("| measure | ours | git | ours / git |\n| --- | ---: | ---: | ---: |")
    for k, v in res["results"].items():
        print("| %s | %.2f ms | %.2f ms | %.2f |" % (k, v["ours_ms"], v["git_ms"], v["ratio"]))
    if args.json:
        with open(args.json, "w") as f:
            json.dump(res, f, indent=2)


if __name__ == "__main__":
    main()
