#!/usr/bin/env python3
"""read_file of ~100 KB files, with what the secret filter found in a blob kept by its id.

Measures, for each binary given (alternating binaries run by run, so both see the same machine):
  same file      read_file of one file from line 1, repeated (the blob read again)
  windows        read_file of that file at a start_line drawn at random, 60 lines (any window)
  distinct files read_file of --files files, each once (every blob read for the first time)
Each figure is the median over --runs runs of the per-call median, in milliseconds, and the
server's CPU per call (user + system, from /proc, the mean over the measure's calls: steadier
than wall time on a busy machine), with the 1-minute load average before each run. The repository is made in a temporary folder: one
file of real C++ (this repository's core/ sources, concatenated to --kb KB), and --files
variants of it (one line differs), committed once.

  bench/blob_scan.py --binary OLD/repo-reader --binary build/repo-reader
"""
import argparse
import glob
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
from bench import Client, answer_text, median  # noqa: E402

GIT_ENV = dict(os.environ, GIT_CONFIG_NOSYSTEM="1", GIT_CONFIG_GLOBAL=os.devnull,
               GIT_AUTHOR_NAME="b", GIT_AUTHOR_EMAIL="b@example.com",
               GIT_COMMITTER_NAME="b", GIT_COMMITTER_EMAIL="b@example.com",
               GIT_AUTHOR_DATE="2026-12-01T00:00:00Z", GIT_COMMITTER_DATE="2026-12-01T00:00:00Z")


def make_repo(folder, kb, files):
    text = b""
    for path in sorted(glob.glob(os.path.join(ROOT, "core", "*", "*.cc"))):
        with open(path, "rb") as f:
            text += f.read()
        if len(text) >= kb * 1024:
            break
    text = text[:kb * 1024]
    text = text[:text.rfind(b"\n") + 1]
    subprocess.run(["git", "init", "-q", "-b", "main", folder], check=True, env=GIT_ENV)
    os.makedirs(os.path.join(folder, "many"))
    with open(os.path.join(folder, "big.cc"), "wb") as f:
        f.write(text)
    for k in range(files):
        with open(os.path.join(folder, "many", "f%03d.cc" % k), "wb") as f:
            f.write(b"// variant %d\n" % k + text)
    subprocess.run(["git", "-C", folder, "add", "-A"], check=True, env=GIT_ENV)
    subprocess.run(["git", "-C", folder, "commit", "-qm", "files"], check=True, env=GIT_ENV)
    return text.count(b"\n")


def timed(client, args):
    t = time.perf_counter_ns()
    text = answer_text(client.call("read_file", args))
    return time.perf_counter_ns() - t, text


def cpu_ms(pid):
    with open("/proc/%d/stat" % pid) as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) * 1000.0 / os.sysconf("SC_CLK_TCK")


def one_run(binary, config, lines, files, calls, rng):
    """(wall median, CPU per call) for: the same file, windows, distinct files."""
    client = Client(binary, config)
    client.initialize()
    pid = client.proc.pid
    out = []
    try:
        same = {"repo": "r", "path": "big.cc"}
        timed(client, same)  # the first read, not counted
        cpu = cpu_ms(pid)
        ns = [timed(client, same)[0] for _ in range(calls)]
        out.append((median(ns) / 1e6, (cpu_ms(pid) - cpu) / calls))
        cpu = cpu_ms(pid)
        ns = []
        for _ in range(calls):
            start = rng.randrange(1, lines - 60)
            t, text = timed(client, dict(same, start_line=start, max_lines=60))
            if ("lines %d–" % start) not in text.split("\n", 1)[0]:
                raise RuntimeError("unexpected answer: " + text[:200])
            ns.append(t)
        out.append((median(ns) / 1e6, (cpu_ms(pid) - cpu) / calls))
        cpu = cpu_ms(pid)
        ns = [timed(client, {"repo": "r", "path": "many/f%03d.cc" % k})[0] for k in range(files)]
        out.append((median(ns) / 1e6, (cpu_ms(pid) - cpu) / files))
    finally:
        client.close()
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--binary", action="append", required=True,
                    help="a repo-reader binary (give two to compare)")
    ap.add_argument("--kb", type=int, default=100, help="the file's size in KB")
    ap.add_argument("--files", type=int, default=100, help="distinct files read once each")
    ap.add_argument("--calls", type=int, default=200, help="calls per measure")
    ap.add_argument("--runs", type=int, default=3, help="runs per binary")
    args = ap.parse_args()
    work = tempfile.mkdtemp(prefix="rr-blob-scan-")
    try:
        repo = os.path.join(work, "r")
        lines = make_repo(repo, args.kb, args.files)
        config = os.path.join(work, "c.yaml")
        with open(config, "w") as f:
            f.write("repos:\n  - name: r\n    path: %s\n" % json.dumps(repo))
            f.write("limits:\n  answer_characters: 40000\nhistory_index: false\n")
        results = {b: [] for b in args.binary}
        rng = random.Random(1)
        for run in range(args.runs):
            for b in args.binary:
                load = os.getloadavg()[0]
                r = one_run(os.path.abspath(b), config, lines, args.files, args.calls, rng)
                results[b].append(r)
                print("run %d %s: same %.3f ms (CPU %.3f), window %.3f ms (CPU %.3f), "
                      "distinct %.3f ms (CPU %.3f) (load %.2f)"
                      % (run + 1, b, r[0][0], r[0][1], r[1][0], r[1][1], r[2][0], r[2][1], load),
                      flush=True)
        print("\nmedian of the runs: wall median / server CPU per call")
        print("| binary | same file | a 60-line window | distinct files |")
        print("|---|---|---|---|")
        for b, rs in results.items():
            print("| %s | %s |" % (b, " | ".join(
                "%.3f / %.3f ms" % (median([r[k][0] for r in rs]), median([r[k][1] for r in rs]))
                for k in range(3))))
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
