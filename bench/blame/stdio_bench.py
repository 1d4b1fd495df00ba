#!/usr/bin/env python3
"""blame over stdio, beside `git blame --porcelain`, in the same run.

The real binary (the Release build bench.py builds) serves one repository; a persistent MCP
client calls `blame` on a file, and each call alternates with one `git blame --porcelain` of the
same file at the same commit, timed as a process spawn. Prints the medians and their ratio.

  bench/blame/stdio_bench.py --repo /path/to/git.git --path builtin/log.c [--runs 5]

With --whole (the default) the server's answer limit is raised to 1,000,000 characters so that
the whole file is blamed and shown, as git blames it; --first-answer keeps the default 40,000
and measures the first answer an agent gets. Not a test; never run in CI.
"""
import argparse
import os
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import bench  # noqa: E402  (bench/bench.py: the binary, the client, the statistics)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repo", required=True, help="the repository (bare or not)")
    ap.add_argument("--path", required=True, help="the file to blame")
    ap.add_argument("--ref", default="HEAD", help="the commit (default HEAD)")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--first-answer", action="store_true",
                    help="keep the default answer limit (40,000 characters)")
    ap.add_argument("--binary", help="a repo-reader binary (default: build the Release one)")
    args = ap.parse_args()

    binary = args.binary or bench.build_binary(os.path.join(bench.ROOT, "build-bench"))
    commit = bench.git("rev-parse", args.ref, cwd=args.repo, capture_output=True,
                       text=True).stdout.strip()
    limit = 40000 if args.first_answer else 1000000
    with tempfile.TemporaryDirectory() as tmp:
        config = os.path.join(tmp, "config.yaml")
        with open(config, "w") as f:
            f.write("repos:\n  - name: subject\n    path: %s\n" % args.repo)
            f.write("limits:\n  answer_characters: %d\n" % limit)
        client = bench.Client(binary, config)
        client.initialize()
        call = {"repo": "subject", "ref": commit, "path": args.path}
        ours, theirs = [], []
        lines = 0
        for _ in range(args.runs):
            t0 = time.perf_counter_ns()
            text = bench.answer_text(client.call("blame", call))
            ours.append(time.perf_counter_ns() - t0)
            lines = text.count("\n")
            wall, _, _ = bench.run_git(args.repo, ["-c", "core.hooksPath=", "blame", "--porcelain",
                                                   "--no-textconv", "--no-ignore-revs-file",
                                                   commit, "--", args.path])
            theirs.append(wall)
        client.close()
    o, g = bench.median(ours), bench.median(theirs)
    print("%s at %s: blame over stdio %.1f ms, git blame --porcelain %.1f ms (medians of %d, "
          "answer of %d lines, limit %s characters); ratio %.2f"
          % (args.path, commit[:12], bench.ms(o), bench.ms(g), args.runs, lines,
             "{:,}".format(limit), o / g))


if __name__ == "__main__":
    main()
