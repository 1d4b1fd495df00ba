#!/usr/bin/env python3
"""Reading several files at once: one read_file call with `paths` (20 files) against 20
read_file calls with `path`, one after the other, end to end over stdio through a persistent
MCP client — what an agent's round trips cost without the model in between. Also one overview
call. Not a test; never run in CI.

    bench/batch_read.sh                       this repository, at its HEAD
    bench/batch_read.sh --size full           the generated repository (bench/run.sh's; made
                                              under bench/out/ when missing), or --size small
    bench/batch_read.sh --repo PATH           another one (bare or not), e.g. a clone of git's own
    bench/batch_read.sh --binary build/repo-reader --runs 50

The 20 files are the first text files of HEAD (in git's order) between --min-bytes and
--max-bytes, so that all 20 fit whole in one answer (40,000 characters): both ways then show the
same lines, which is checked. Batched and single calls alternate run by run, so both see the
same machine.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench  # noqa: E402


def pick_files(repo, count, min_bytes, max_bytes):
    """The first `count` files of HEAD between the sizes, that git calls text, and that the
    server serves (no files named for credentials)."""
    out = subprocess.run(["git", "-C", repo, "ls-tree", "-r", "-l", "HEAD"], env=bench.GIT_ENV,
                         check=True, stdout=subprocess.PIPE, text=True).stdout
    picked, total = [], 0
    for line in out.splitlines():
        meta, path = line.split("\t", 1)
        mode, kind, obj, size = meta.split()
        if kind != "blob" or mode == "120000" or not size.isdigit():
            continue
        if not (min_bytes <= int(size) <= max_bytes) or os.path.basename(path).startswith("."):
            continue
        data = subprocess.run(["git", "-C", repo, "cat-file", "blob", obj], env=bench.GIT_ENV,
                              check=True, stdout=subprocess.PIPE).stdout
        if b"\0" in data[:8000]:
            continue
        picked.append(path)
        total += int(size)
        if len(picked) == count:
            break
    if len(picked) < count:
        raise SystemExit("only %d files of %d–%d bytes in %s" % (len(picked), min_bytes,
                                                                 max_bytes, repo))
    return picked, total


def numbered_lines(text):
    """The file lines of an answer (those that start with a line number), in order."""
    return [l for l in text.split("\n")[1:] if l.strip()[:1].isdigit()]


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--repo", help="the repository (default: this one)")
    ap.add_argument("--size", choices=sorted(bench.SIZES),
                    help="the generated repository of this size instead (bench/run.sh's)")
    ap.add_argument("--binary", help="a built repo-reader (default: a Release build in "
                                     "build-bench/)")
    ap.add_argument("--files", type=int, default=20)
    ap.add_argument("--min-bytes", type=int, default=400)
    ap.add_argument("--max-bytes", type=int, default=1800)
    ap.add_argument("--runs", type=int, default=40, help="measured runs of each (default 40)")
    ap.add_argument("--warmup", type=int, default=5)
    args = ap.parse_args()

    binary = args.binary or bench.build_binary(os.path.join(bench.ROOT, "build-bench"))
    if args.size:
        repo = bench.generate(os.path.join(bench.OUT, "repo-%s.git" % args.size),
                              **bench.SIZES[args.size])
    else:
        repo = os.path.abspath(args.repo or bench.ROOT)
    files, total_bytes = pick_files(repo, args.files, args.min_bytes, args.max_bytes)
    with tempfile.TemporaryDirectory() as tmp:
        config = bench.write_config(os.path.join(tmp, "config.yml"), [("bench", repo)])
        client = bench.Client(binary, config)
        client.initialize()

        def batch():
            t0 = time.perf_counter_ns()
            line = client.call("read_file", {"repo": "bench", "paths": files})
            t1 = time.perf_counter_ns()
            return t1 - t0, [bench.answer_text(line)]

        def singles():
            texts, t0 = [], time.perf_counter_ns()
            for p in files:
                texts.append(client.call("read_file", {"repo": "bench", "path": p}))
            t1 = time.perf_counter_ns()
            return t1 - t0, [bench.answer_text(l) for l in texts]

        def overview():
            t0 = time.perf_counter_ns()
            line = client.call("overview", {"repo": "bench"})
            t1 = time.perf_counter_ns()
            return t1 - t0, [bench.answer_text(line)]

        # Both ways show the same lines of the same files.
        _, (b,) = batch()
        _, s = singles()
        if numbered_lines(b) != [l for t in s for l in numbered_lines(t)]:
            raise SystemExit("the batch and the single calls show different lines")
        if "not shown" in b or "not reached" in b:
            raise SystemExit("the batch was cut: choose smaller files (--max-bytes)")
        for _ in range(args.warmup):
            batch(), singles(), overview()
        tb, ts, to = [], [], []
        for _ in range(args.runs):
            tb.append(batch()[0])
            ts.append(singles()[0])
            to.append(overview()[0])
        _, (ov,) = overview()
        client.close()

    mb, ms_ = bench.median(tb), bench.median(ts)
    print("repository: %s (HEAD), %d files of %d–%d bytes, %s bytes in all" %
          (repo, len(files), args.min_bytes, args.max_bytes, f"{total_bytes:,}"))
    m = bench.machine()
    print("binary: %s; %d runs after %d warm-up" % (os.path.relpath(binary, bench.ROOT),
                                                    args.runs, args.warmup))
    print("machine: %(cores)d cores, %(cpu)s, load %(load)s, %(libgit2)s libgit2, %(date)s" % m)
    print()
    print("| measure | median | p95 | calls | answer characters |")
    print("|---|---|---|---|---|")
    print("| read_file, `paths` of %d files | %.3f ms | %.3f ms | 1 | %s |" %
          (len(files), bench.ms(mb), bench.ms(bench.p95(tb)), f"{len(b):,}"))
    print("| read_file, %d calls with `path` | %.3f ms | %.3f ms | %d | %s |" %
          (len(files), bench.ms(ms_), bench.ms(bench.p95(ts)), len(files),
           f"{sum(len(t) for t in s):,}"))
    print("| overview | %.3f ms | %.3f ms | 1 | %s |" %
          (bench.ms(bench.median(to)), bench.ms(bench.p95(to)), f"{len(ov):,}"))
    print()
    print("batched / single calls: %.2fx the time" % (mb / ms_))


if __name__ == "__main__":
    main()
