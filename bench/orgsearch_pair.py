#!/usr/bin/env python3
"""Two builds of the server side by side over an organisation bench/orgsearch.py has indexed:
both started at once over the same configuration and cache folder, each query of the set sent
to one and then the other (which goes first alternates), round after round. Not a test; never
run in CI.

    bench/orgsearch.py --repos 20000 ...             once: builds the organisation and its index
    bench/orgsearch_pair.py --config bench/out/org/indexed-20000.yaml --repos 20000 \\
        --rounds 7 OLD-BINARY NEW-BINARY

Why beside orgsearch.py's --baseline: on a shared machine the speed of a whole server process
moves by up to twice from one start to the next (a unique token's search took 9 ms in one
process and 18 ms in the next, the same build); two servers measured in the same seconds, query
by query, see the same machine. The rounds go through the whole set each time, as an agent's
searches come (another query's search between two of the same), not one query three times in a
row. Prints each query's median on both, their ratio and whether the answers' texts were
identical, then both builds' p50 / p99 over every call and their CPU time.
"""
import argparse
import json
import os
import statistics
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import bench  # noqa: E402
import orgsearch  # noqa: E402


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("old", help="a repo-reader binary (the baseline)")
    ap.add_argument("new", help="another repo-reader binary")
    ap.add_argument("--config", required=True,
                    help="the indexed configuration bench/orgsearch.py wrote (bench/out/org/)")
    ap.add_argument("--repos", type=int, required=True, help="its repositories")
    ap.add_argument("--rounds", type=int, default=7)
    ap.add_argument("--only", help="only the queries whose arguments hold one of these, '|' apart")
    ap.add_argument("--index-wait", type=int, default=1800)
    ap.add_argument("--differ-to", help="a folder to write both answers of each query that differs into")
    a = ap.parse_args()

    clients = []
    for i, binary in enumerate((a.old, a.new)):
        log = os.path.join(orgsearch.OUT, "pair-%d.log" % i)
        c = bench.Client(binary, a.config, log=log)
        c.initialize()
        clients.append(c)
    for c in clients:
        orgsearch.wait_indexed(c, a.repos, a.index_wait)
    orgsearch.wait_quiet(clients, a.index_wait)

    queries = orgsearch.queries(a.repos)
    if a.only:
        queries = [q for q in queries if any(o in json_args(q[1]) for o in a.only.split("|"))]
    times = ({}, {})
    calls = ([], [])
    answers = ({}, {})
    differ = set()
    cpu_before = [orgsearch.cpu_s(c.proc.pid) for c in clients]
    for r in range(a.rounds):
        for n, (_, args) in enumerate(queries):
            key = json_args(args)
            for i in ((0, 1) if (r + n) % 2 == 0 else (1, 0)):
                began = time.perf_counter()
                answer = clients[i].call("search", args)
                ms = (time.perf_counter() - began) * 1000
                times[i].setdefault(key, []).append(ms)
                calls[i].append(ms)
                answers[i][key] = bench.answer_text(answer)
            if answers[0][key] != answers[1][key]:
                differ.add(key)
                if a.differ_to:
                    os.makedirs(a.differ_to, exist_ok=True)
                    for i, side in enumerate(("old", "new")):
                        with open(os.path.join(a.differ_to, "%02d-%s.txt" % (n, side)), "w") as f:
                            f.write(answers[i][key])
    cpu_after = [orgsearch.cpu_s(c.proc.pid) for c in clients]
    for c in clients:
        c.close()

    print("| query | old (ms, median) | new (ms, median) | new / old | answers |")
    print("| --- | ---: | ---: | ---: | --- |")
    ratios = []
    for _, args in queries:
        key = json_args(args)
        old, new = statistics.median(times[0][key]), statistics.median(times[1][key])
        ratios.append(new / old)
        print("| `%s` | %.1f | %.1f | %.2f | %s |" % (
            key, old, new, new / old, "differ" if key in differ else "identical"))
    for i, name in enumerate(("old", "new")):
        t = sorted(calls[i])
        print("%s (%s): p50 %.1f ms, p99 %.1f ms over %d calls; CPU %.2f s" % (
            name, (a.old, a.new)[i], statistics.median(t), t[min(len(t) - 1, int(len(t) * 0.99))],
            len(t), cpu_after[i] - cpu_before[i]))
    print("new / old, geometric mean of the queries' medians: %.3f; answers identical on %d of %d"
          % (statistics.geometric_mean(ratios), len(queries) - len(differ), len(queries)))
    print("load average after: %s" % " ".join(open("/proc/loadavg").read().split()[:3]))
    return 1 if differ else 0


def json_args(value):
    return json.dumps(value, sort_keys=True)


if __name__ == "__main__":
    sys.exit(main())
