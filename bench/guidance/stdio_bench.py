#!/usr/bin/env python3
"""read_file with guidance beside read_file without, over stdio, in the same run.

Two repositories with the same files: `plain` carries no guidance; `guided` is the same history
plus one commit adding guidance of every kind, two rules of which (a folder's AGENTS.md and a
rule whose globs match) are joined to the answer about the file read. The real binary (the
Release build bench.py builds) serves both; a persistent MCP client calls read_file on the same
path in each, alternating call by call, and prints the medians and their difference: what an
answer pays for its guidance once the guidance is known (a lookup of each default branch and the
rules' lines through the secret filter). The first call to `guided` — the one that reads its
tree — is timed apart.

  bench/guidance/stdio_bench.py [--files 2000] [--lines 200] [--runs 3000]

Not a test; never run in CI.
"""
import argparse
import os
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import bench  # noqa: E402  (bench/bench.py: the binary, the client, the statistics)

PATH = "src/pricing/cart.py"


def write(root, rel, text):
    path = os.path.join(root, rel)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def make_repos(tmp, files, lines):
    plain = os.path.join(tmp, "plain")
    bench.git("init", "-q", "-b", "main", plain)
    for i in range(files):
        write(plain, "src/m%02d/f%04d.py" % (i % 50, i), "x = %d\n" % i)
    write(plain, PATH, "".join("line %d = %d\n" % (i, i * 7) for i in range(lines)))
    env = dict(bench.GIT_ENV, GIT_AUTHOR_NAME="b", GIT_AUTHOR_EMAIL="b@example.com",
               GIT_COMMITTER_NAME="b", GIT_COMMITTER_EMAIL="b@example.com")
    subprocess.run(["git", "add", "-A"], cwd=plain, env=env, check=True)
    subprocess.run(["git", "commit", "-q", "-m", "files"], cwd=plain, env=env, check=True)
    guided = os.path.join(tmp, "guided")
    subprocess.run(["git", "clone", "-q", plain, guided], env=env, check=True)
    rule = "".join("- Pricing rule %d: amounts are integers in cents.\n" % i for i in range(20))
    write(guided, "AGENTS.md", "Run the tests before you commit.\n" * 10)
    write(guided, "src/pricing/AGENTS.md", "Prices change only with a ticket.\n" * 5)
    write(guided, ".claude/rules/pricing.md", "---\npaths:\n  - src/pricing/**\n---\n" + rule)
    write(guided, ".claude/rules/web.md", "---\npaths: web/**\n---\nNot this path.\n")
    write(guided, ".github/instructions/ts.instructions.md",
          "---\napplyTo: \"**/*.ts\"\n---\nNot this path either.\n")
    write(guided, ".claude/skills/refund-flow/SKILL.md",
          "---\nname: refund-flow\ndescription: Issue a refund.\n---\nCall the API.\n")
    subprocess.run(["git", "add", "-A"], cwd=guided, env=env, check=True)
    subprocess.run(["git", "commit", "-q", "-m", "guidance"], cwd=guided, env=env, check=True)
    return plain, guided


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--files", type=int, default=2000, help="files in each repository")
    ap.add_argument("--lines", type=int, default=200, help="lines of the file read")
    ap.add_argument("--runs", type=int, default=3000, help="calls of each, measured")
    ap.add_argument("--warmup", type=int, default=200)
    ap.add_argument("--binary", help="a repo-reader binary (default: build the Release one)")
    args = ap.parse_args()

    binary = args.binary or bench.build_binary(os.path.join(bench.ROOT, "build-bench"))
    with tempfile.TemporaryDirectory() as tmp:
        plain, guided = make_repos(tmp, args.files, args.lines)
        config = bench.write_config(os.path.join(tmp, "config.yaml"),
                                    [("plain", plain), ("guided", guided)])
        client = bench.Client(binary, config)
        client.initialize()
        call = {"plain": {"repo": "plain", "path": PATH}, "guided": {"repo": "guided", "path": PATH}}
        bench.answer_text(client.call("read_file", call["plain"]))
        t0 = time.perf_counter_ns()
        first = bench.answer_text(client.call("read_file", call["guided"]))
        cold = time.perf_counter_ns() - t0
        if "=== End of guidance" not in first:
            raise SystemExit("the guided answer carries no rule:\n" + first[:500])
        times = {"plain": [], "guided": []}
        sizes = {}
        for i in range(args.warmup + args.runs):
            for name in ("plain", "guided") if i % 2 else ("guided", "plain"):
                t0 = time.perf_counter_ns()
                text = bench.answer_text(client.call("read_file", call[name]))
                dt = time.perf_counter_ns() - t0
                if i >= args.warmup:
                    times[name].append(dt)
                sizes[name] = len(text)
        client.close()
    p, g = bench.median(times["plain"]), bench.median(times["guided"])
    print("read_file %s (%d lines) over stdio, medians of %d calls each, alternating:"
          % (PATH, args.lines, args.runs))
    print("  without guidance  %.3f ms (p95 %.3f ms), answer of %d characters"
          % (bench.ms(p), bench.ms(bench.p95(times["plain"])), sizes["plain"]))
    print("  with guidance     %.3f ms (p95 %.3f ms), answer of %d characters (2 rules joined)"
          % (bench.ms(g), bench.ms(bench.p95(times["guided"])), sizes["guided"]))
    print("  difference        %+.3f ms (target: within 0.1 ms)" % bench.ms(g - p))
    print("  first call to the guided repository (its tree read, %d files): %.3f ms"
          % (args.files, bench.ms(cold)))


if __name__ == "__main__":
    main()
