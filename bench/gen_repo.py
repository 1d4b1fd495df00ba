#!/usr/bin/env python3
"""Writes a `git fast-import` stream for a large, realistic-looking repository to stdout.

The shape follows git's own repository: a long, mostly linear main branch whose commits touch a
few files each, a folder tree a few levels deep with some crowded folders, files added over the
years, a few dozen side branches, and many release tags (some annotated). One text file of about
100 KB (builtin/sequencer.c) is edited now and then, as large source files are.

Everything is derived from --seed, so the same arguments give the same repository, byte for byte.
Standard library only.

    python3 gen_repo.py --commits 80000 --files 5000 --tags 1000 | git fast-import --quiet
"""
import argparse
import random
import sys

BIG_FILE = "builtin/sequencer.c"
START_TIME = 1112911993  # April 2005
SECONDS_PER_COMMIT = 7200  # 80,000 commits span about 18 years

TOP_FOLDERS = [
    "Documentation", "builtin", "t", "compat", "contrib", "xdiff", "refs", "reftable", "po",
    "ci", "templates", "gitweb", "perl", "mergetools", "trace2", "negotiation", "block-sha1",
    "sha256", "oss-fuzz", "git-gui", "gitk-git", "scripts", "bin-wrappers", "tools",
]
SYLLABLES = [
    "core", "util", "net", "proto", "fmt", "pack", "index", "diff", "merge", "graph", "object",
    "store", "cache", "http", "lib", "api", "cfg", "log", "path", "walk", "hash", "mem", "str",
    "io", "win32", "posix", "helper", "test", "doc", "howto", "technical", "config", "fsmonitor",
    "credential", "remote", "transport", "submodule", "sparse", "bundle", "archive", "blame",
]
EXTENSIONS_BY_TOP = {
    "Documentation": [".txt", ".adoc", ".txt", ".md"],
    "t": [".sh", ".sh", ".sh", ".c", ".txt"],
    "po": [".po"],
    "perl": [".pm", ".perl"],
    "gitweb": [".perl", ".js", ".css"],
    "ci": [".sh", ".yml"],
    "contrib": [".sh", ".c", ".py", ".el", ".txt"],
}
DEFAULT_EXTENSIONS = [".c", ".c", ".h", ".c", ".h", ".sh"]
WORDS = (
    "static int void char const struct unsigned size_t return if else for while break continue "
    "repo tree blob commit object oid path name len buf strbuf opts flags ret err die error "
    "warning free xmalloc xstrdup strcmp memcpy argv argc prefix entry list item next prev "
    "index cache pack ref refs head base parent child count total result state data value key "
    "config options string_list hashmap oidset revs rev_info diff_options merge_options the a "
    "of to is in that it for on with as be by this are from or an at not which have all can "
    "# * - = == != && || ( ) { } ; , -> . + < > 0 1 2 NULL true false").split()
AUTHORS = [
    ("Junio C Hamano", "gitster@example.org"), ("Jeff King", "peff@example.net"),
    ("Patrick Steinhardt", "ps@example.im"), ("Taylor Blau", "me@example.com"),
    ("Elijah Newren", "newren@example.com"), ("Johannes Schindelin", "johannes@example.de"),
    ("Derrick Stolee", "stolee@example.com"), ("René Scharfe", "l.s.r@example.de"),
    ("Ævar Arnfjörð Bjarmason", "avarab@example.com"), ("Linus Torvalds", "torvalds@example.org"),
    ("Shawn O. Pearce", "spearce@example.org"), ("Nguyễn Thái Ngọc Duy", "pclouds@example.com"),
]
VERBS = ["fix", "teach", "refactor", "avoid", "use", "drop", "add", "document", "simplify",
         "clarify", "plug a leak in", "speed up", "remove unused", "rename", "test"]


class Gen:
    def __init__(self, args):
        self.a = args
        self.rng = random.Random(args.seed)
        self.out = sys.stdout.buffer
        self.pool = [self._make_line() for _ in range(30000)]
        self.mark = 0

    # ---- content ------------------------------------------------------------------------------
    def _make_line(self):
        r = self.rng
        if r.random() < 0.12:
            return ""
        indent = "\t" * r.choice((0, 1, 1, 1, 2, 2, 3))
        n = r.randint(2, 9)
        return indent + " ".join(r.choice(WORDS) for _ in range(n))

    def lines_for_size(self, nbytes):
        r, pool = self.rng, self.pool
        lines, size = [], 0
        while size < nbytes:
            line = pool[r.randrange(len(pool))]
            lines.append(line)
            size += len(line) + 1
        return lines

    def edit(self, lines):
        """A small change: replace, insert or delete a few neighbouring lines."""
        r, pool = self.rng, self.pool
        for _ in range(r.choice((1, 1, 1, 2, 3))):
            at = r.randrange(len(lines) + 1)
            op = r.random()
            if op < 0.5 and at < len(lines):
                for i in range(at, min(at + r.randint(1, 4), len(lines))):
                    lines[i] = pool[r.randrange(len(pool))]
            elif op < 0.75 or len(lines) < 20:
                lines[at:at] = [pool[r.randrange(len(pool))] for _ in range(r.randint(1, 5))]
            else:
                del lines[at:at + r.randint(1, 5)]

    # ---- tree shape ---------------------------------------------------------------------------
    def plan_paths(self):
        r, a = self.rng, self.a
        folders = list(TOP_FOLDERS)
        depth = {f: 1 for f in folders}
        # Subfolders: attached to existing folders, more often near the top.
        n_sub = max(10, a.files // 16)
        while len(folders) < len(TOP_FOLDERS) + n_sub:
            parent = r.choice(folders) if r.random() < 0.6 else r.choice(TOP_FOLDERS)
            if depth[parent] >= 5:
                continue
            name = r.choice(SYLLABLES) + (r.choice(("", "-", "_")) + r.choice(SYLLABLES)
                                          if r.random() < 0.5 else "")
            child = parent + "/" + name
            if child in depth:
                continue
            depth[child] = depth[parent] + 1
            folders.append(child)
        # Crowded folders (like git's t/ and builtin/) get much more than their share.
        weight = {f: r.paretovariate(1.2) for f in folders}
        for f in ("t", "builtin", "Documentation", "po", "compat"):
            weight[f] *= 25
        fl = list(folders)
        cum, total = [], 0.0
        for f in fl:
            total += weight[f]
            cum.append(total)
        n_root = min(90, max(10, a.files // 55))
        paths = {BIG_FILE}
        stems = ["Makefile", "README.md", "COPYING", "INSTALL", "SECURITY.md", "GIT-VERSION-GEN",
                 ".gitignore", ".gitattributes", ".mailmap", "CODE_OF_CONDUCT.md", "meson.build",
                 "configure.ac", "config.mak.in", "AGENTS.md"]
        for s in stems:
            if len(paths) < n_root:
                paths.add(s)
        while len(paths) < n_root + 1:
            paths.add(self._file_name(DEFAULT_EXTENSIONS))
        import bisect
        while len(paths) < a.files:
            f = fl[bisect.bisect(cum, r.random() * total)]
            top = f.split("/", 1)[0]
            paths.add(f + "/" + self._file_name(EXTENSIONS_BY_TOP.get(top, DEFAULT_EXTENSIONS)))
        paths = sorted(paths)
        r.shuffle(paths)
        return paths

    def _file_name(self, exts):
        r = self.rng
        if r.random() < 0.3:
            stem = "t%04d-%s" % (r.randrange(10000), r.choice(SYLLABLES))
        else:
            stem = r.choice(SYLLABLES)
            if r.random() < 0.7:
                stem += r.choice(("-", "_", "")) + r.choice(SYLLABLES)
        return stem + r.choice(exts)

    # ---- fast-import stream -------------------------------------------------------------------
    def w(self, s):
        self.out.write(s.encode() if isinstance(s, str) else s)

    def data(self, payload):
        b = payload.encode()
        self.w(b"data %d\n" % len(b))
        self.w(b)
        self.w(b"\n")

    def commit(self, ref, parent, when, changes, subject):
        r = self.rng
        self.mark += 1
        name, email = AUTHORS[r.randrange(len(AUTHORS))]
        ident = "%s <%s> %d +0000\n" % (name, email, when)
        self.w("commit %s\nmark :%d\nauthor %scommitter %s" % (ref, self.mark, ident, ident))
        body = subject + "\n"
        if r.random() < 0.7:
            body += "\n" + " ".join(r.choice(WORDS) for _ in range(r.randint(10, 60))) + "\n"
        body += "\nSigned-off-by: %s <%s>\n" % (name, email)
        self.data(body)
        if parent:
            self.w("from :%d\n" % parent)
        for path, text in changes:
            self.w("M 100644 inline %s\n" % path)
            self.data(text)
        self.w("\n")
        return self.mark

    def subject(self, path):
        area = path.rsplit("/", 1)[0] if "/" in path else path
        return "%s: %s %s" % (area, self.rng.choice(VERBS), " ".join(
            self.rng.choice(WORDS) for _ in range(self.rng.randint(2, 6))))

    def run(self):
        r, a = self.rng, self.a
        paths = self.plan_paths()
        n_initial = max(1, int(len(paths) * 0.35))
        later = [p for p in paths[n_initial:] if p != BIG_FILE]
        initial = [p for p in paths[:n_initial] if p != BIG_FILE] + [BIG_FILE]
        content = {}
        for p in initial:
            size = a.big_kb * 1024 if p == BIG_FILE else min(60000, int(r.lognormvariate(7.4, 1.0)))
            content[p] = self.lines_for_size(max(40, size))

        def text(p):
            return "\n".join(content[p]) + "\n"

        when = START_TIME
        main = self.commit("refs/heads/main", None, when, [(p, text(p)) for p in initial],
                           "Initial revision of the tree")
        live = list(initial)
        hot = r.sample(live, min(300, len(live)))
        n_commits = a.commits
        n_branches = max(2, a.tags // 30)
        branch_at = set(r.sample(range(n_commits // 10, n_commits), n_branches))
        tag_every = max(1, n_commits // max(1, a.tags))
        add_every = max(1, n_commits // max(1, len(later) + 1))
        big_every = max(1, n_commits // 400)
        made = 1
        branch_no = 0
        tag_no = 0
        while made < n_commits:
            when += r.randint(SECONDS_PER_COMMIT // 4, SECONDS_PER_COMMIT * 7 // 4)
            touched = set()
            added = None
            if later and made % add_every == 0:
                p = later.pop()
                content[p] = self.lines_for_size(max(40, min(60000, int(r.lognormvariate(7.4, 1.0)))))
                live.append(p)
                if r.random() < 0.2:
                    hot[r.randrange(len(hot))] = p
                touched.add(p)
                added = p
            if made % big_every == 0:
                touched.add(BIG_FILE)
            for _ in range(r.choice((1, 1, 2, 2, 3, 4))):
                touched.add(r.choice(hot) if r.random() < 0.6 else r.choice(live))
            changes = []
            for p in sorted(touched):
                if p != added:
                    self.edit(content[p])
                changes.append((p, text(p)))
            main = self.commit("refs/heads/main", main, when, changes,
                               self.subject(sorted(touched)[0]))
            made += 1
            if made % tag_every == 0 and tag_no < a.tags:
                tag_no += 1
                self.tag(tag_no, main, when)
            if made in branch_at and made < n_commits:
                branch_no += 1
                made += self.side_branch(branch_no, main, when, live, content,
                                         min(r.randint(2, 15), n_commits - made))
        while tag_no < a.tags:  # small sizes: whatever tags are left go on the last commit
            tag_no += 1
            self.tag(tag_no, main, when)
        self.w("done\n")

    def tag(self, n, mark, when):
        name = "v%d.%d.%d" % (n // 100, (n // 10) % 10, n % 10)
        if n % 5 in (0, 2):  # two in five are annotated
            self.w("tag %s\nfrom :%d\ntagger Junio C Hamano <gitster@example.org> %d +0000\n"
                   % (name, mark, when + 60))
            self.data("Git %s\n" % name)
        else:
            self.w("reset refs/tags/%s\nfrom :%d\n\n" % (name, mark))

    def side_branch(self, n, base, when, live, content, count):
        """A few commits on their own branch; the main line's files are left as they were."""
        r = self.rng
        kind = r.choice(("topic", "topic", "release", "maint-fix"))
        ref = "refs/heads/%s/%s-%d" % (kind, r.choice(SYLLABLES), n)
        parent = base
        local = {}
        for _ in range(count):
            when += 60
            p = r.choice(live)
            lines = local.get(p) or list(content[p])
            self.edit(lines)
            local[p] = lines
            parent = self.commit(ref, parent, when, [(p, "\n".join(lines) + "\n")], self.subject(p))
        return count


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--commits", type=int, default=80000)
    ap.add_argument("--files", type=int, default=5000)
    ap.add_argument("--tags", type=int, default=1000)
    ap.add_argument("--big-kb", type=int, default=100, help="size of builtin/sequencer.c in KB")
    ap.add_argument("--seed", type=int, default=2005)
    args = ap.parse_args()
    Gen(args).run()
    sys.stdout.buffer.flush()


if __name__ == "__main__":
    main()
