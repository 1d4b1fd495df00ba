#!/usr/bin/env python3
"""Writes the fuzz targets' seed corpora into fuzz/corpus/<target>/ (run from anywhere; needs
git). Every seed is written here by hand or made by git from a scratch repository, in the layout
its target reads (fuzz/<target>_fuzz.cc says how an input is cut). Re-running rewrites the seeds
it makes and leaves other files in the corpus folders alone (reproducers of findings are kept
there as found-*)."""
import hashlib
import os
import shutil
import struct
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CORPUS = os.path.join(ROOT, "fuzz", "corpus")


def put(target, name, data):
    folder = os.path.join(CORPUS, target)
    os.makedirs(folder, exist_ok=True)
    if isinstance(data, str):
        data = data.encode()
    with open(os.path.join(folder, name), "wb") as f:
        f.write(data)


def part(b):
    return struct.pack("<I", len(b)) + b


def jsonrpc():
    seeds = {
        "initialize": '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":'
                      '"2025-06-18","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}',
        "call": '{"jsonrpc":"2.0","id":"a-1","method":"tools/call","params":{"name":"read_file",'
                '"arguments":{"repo":"shop","limit":20,"flag":true,"mode":"a",'
                '"paths":["src/main.c","README.md"]},"_meta":{"progressToken":7}}}',
        "call-bad-types": '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"grep",'
                          '"arguments":{"repo":5,"limit":"x","flag":"yes","paths":[1,null],'
                          '"unknown":{}}}}',
        "huge-id": '{"jsonrpc":"2.0","id":18446744073709551617,"method":"ping"}',
        "huge-numbers": '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"arguments":'
                        '{"limit":-99999999999999999999,"any":1e400,"repo":"\\u00e9\\ud83d\\ude00"}}}',
        "notification": '{"jsonrpc":"2.0","method":"notifications/cancelled","params":'
                        '{"requestId":3,"reason":"user"}}',
        "batch": '[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"x"}]',
        "lone-value": '"just a string"',
        "deep": "[" * 70 + "]" * 70,
        "not-json": '{"jsonrpc":"2.0","id":1,"method":"ping"',
        "escapes": '{"jsonrpc":"2.0","id":"\\u0000\\b\\f\\n\\r\\t\\"\\\\\\/","method":"a\\u001f"}',
        "response": '{"jsonrpc":"2.0","id":9,"result":{}}',
    }
    for k, v in seeds.items():
        put("jsonrpc", k, v)
    put("jsonrpc", "invalid-utf8", b'{"jsonrpc":"2.0","id":1,"method":"\xff\xc3("}')


def yaml():
    put("yaml", "config", """repos:
  - name: shop
    path: /srv/git/shop.git
    description: "The shop"
    include: ["src/**", "*.md"]
    exclude: [secrets/**]
  - name: docs
    url: https://example.test/docs.git
    refs: [main, "release/*"]
    sync_every: 10m
http:
  listen: 127.0.0.1:8080
  tokens:
    - token_env: RR_TOKEN
      repos: ["shop"]
limits:
  answer_characters: 40000
""")
    put("yaml", "anchors", """base: &b {a: 1, b: [x, y]}
one: *b
two: {<<: *b, c: 3}
list: &l [*b, *b, *b]
more: [*l, *l, *l]
""")
    put("yaml", "scalars", """plain: text with: colon
quoted: "a\\tb\\u00e9\\x41"
single: 'it''s'
folded: >
  one
  two
literal: |-
  keep
   this
tagged: !custom value
binary: !!binary aGVsbG8=
num: 0x1F
nul: ~
empty:
? complex key
: value
""")
    put("yaml", "documents", "---\na: 1\n...\n---\nb: 2\n--- !!str\nc\n")
    put("yaml", "flow", "{a: [1, 2, {b: c}], d: {e: [f, [g, [h]]]}, 'k': \"v\"}\n")
    put("yaml", "duplicate-keys", "repos:\n  - name: a\n    name: b\nrepos: []\n")
    put("yaml", "bad", "repos:\n  - name: [unclosed\n  bad: : :\n\t- tab\n")
    put("yaml", "directives", "%YAML 1.1\n%TAG !e! tag:example.test,2000:\n---\n!e!x {a: !e!y b}\n")


def front_matter():
    put("front_matter", "skill", """---
name: pdf-tools
description: Reads and fills PDF forms. Use when a task names a PDF.
compatibility: Needs python3
metadata:
  author: team
  version: "1.2"
---
# PDF tools

Body text.
""")
    put("front_matter", "rule-crlf-bom", "\ufeff---\r\npaths:\r\n  - src/**/*.ts\r\n  - \"!src/gen/**\"\r\n---\r\nUse tabs.\r\n")
    put("front_matter", "cursor-rule", "---\ndescription: Style\nglobs: \"*.py,*.pyi\"\nalwaysApply: false\n---\nbody\n")
    put("front_matter", "unclosed", "---\nname: x\ndescription: never closed\n")
    put("front_matter", "empty", "---\n---\n")
    put("front_matter", "closing-with-spaces", "---\nname: a\n---  \t\nbody")
    put("front_matter", "not-a-mapping", "---\n- a\n- b\n---\n")
    put("front_matter", "types", "---\nname: n\ndescription: d\nv: 1.5e3\no: 0o17\nh: 0xff\ni: .inf\nn: .nan\nt: True\nf: FALSE\nz: ~\nq: !str 12\n---\n")
    bomb = "---\na: &a [x, x, x, x, x, x, x, x, x]\n"
    prev = "a"
    for name in "bcdefgh":
        bomb += "%s: &%s [*%s, *%s, *%s, *%s, *%s, *%s, *%s, *%s, *%s]\n" % ((name, name) + (prev,) * 9)
        prev = name
    put("front_matter", "alias-bomb", bomb + "---\n")
    put("front_matter", "long-number", "---\nname: n\ndescription: d\nversion: " + "1" * 2000 + "\n---\n")


def glob():
    seeds = {
        "star": "*.md\ndocs/guide/intro.md",
        "anchored": "src/**/test_*.py\nsrc/a/b/test_x.py",
        "class": "config/prod.[!a-c]?\nconfig/prod.yml",
        "escape": "\\*literal\\[x]\n*literal[x]",
        "leading-slash": "/Makefile\nMakefile",
        "double-star-end": "vendor/**\nvendor/a/b/c",
        "unclosed-class": "[abc\n[abc",
        "env": ".env\nsecrets/.env",
        "ranges": "[^0-9a-zA-Z_]*\n-file",
        "many-stars": "*a*b*c*d*e*f*\nxaxbxcxdxexfx",
    }
    for k, v in seeds.items():
        put("glob", k, v)
    # Nested ** groups against a deep path that never matches (issue 21, finding 3): a matcher
    # that backtracks takes seconds per group; a linear one answers at once.
    put("glob", "nested-double-star", "**/d/" * 8 + "nomatch.txt\n" + "d/" * 40 + "x.txt")
    # The shape of the hour's finding: ** groups in an 11 KB pattern against a path of 11,135
    # parts took 12 s, the pattern's parts times the path's (this seed has 1,600 groups, about
    # the size found). A pattern is now at most 1,024 bytes
    # and 64 parts (Glob::kMaxBytes, kMaxParts): the first is refused, the second is the most a
    # pattern may cost, against the longest path a caller gives (4,096 bytes).
    put("glob", "found-long-pattern", "**/d/d/" * 1600 + "nomatch.txt\n" + "d/" * 11134 + "x.txt")
    put("glob", "most-costly-pattern", "**/*d*/" * 31 + "**/nomatch.txt\n" + "d/" * 2045 + "x.txt")


def ere():
    seeds = [
        (0, "^(foo|bar)+[0-9]{2,3}$", "foofoobar123"),
        (1, "[[:upper:]][[:alpha:]]*", "hello World"),
        (2, "^a.*z$", "abc\nayz\nz"),
        (3, "\\<word\\>|\\bx\\B", "a word xy"),
        (0, "a{,3}b{2}c{1,}", "aabbc"),
        (0, "(a|)+b", "aaab"),
        (0, "\\1(a)", "aa"),
        (0, "(?=x)", "x"),
        (0, "a++", "aa"),
        (0, "[=a=][.b.]", "ab"),
        (0, "x{2", "x{2"),
        (0, "a)b", "a)b"),
        (0, "[\\w]\\s\\S\\W", "\\ a-"),
        (0, "(.*a){25}", "a" * 300),
        (2, "[^\\n]*$", "line1\r\nline2\n"),
    ]
    for i, (flags, pattern, subject) in enumerate(seeds):
        put("ere", "seed-%02d" % i, bytes([flags]) + (pattern + "\n" + subject).encode())


def ref_text():
    for name, v in {
        "branch": "main", "slash": "release/2.1", "remote": "origin/main", "tilde": "HEAD~3",
        "caret": "v1.2^2", "mixed": "main~2^1~1", "sha": "a1b2c3d4e5f6a1b2c3d4e5f6a1b2c3d4e5f6a1b2",
        "short": "a1b2c3d", "path": "main:README.md", "search": ":/fix", "reflog": "main@{1}",
        "range": "a..b", "option": "--output=x", "glob": "refs/*", "space": "a b",
        "control": "a\x01b", "backslash": "a\\b", "braces": "v1^{tree}",
    }.items():
        put("ref_text", name, v)
    put("ref_text", "long", "a" * 1100)


def outline():
    kinds = ["markdown", "c", "python", "javascript", "go", "rust", "java", "shell", "yaml"]
    samples = {
        "markdown": "---\ntitle: x\n---\n# Title\n\nText\n\nSub\n===\n\n```\n# not\n```\n"
                    "    # indented\n> # quote\n<div>\n# html\n</div>\n## Two ##\n###### Six\n####### seven\n",
        "c": "#define MAX 10\nnamespace a {\nclass B : public C {\n public:\n  int f(int x) const;\n"
             "  template <typename T> T g() { return T(); }\n};\nstruct D;\nenum class E { x };\n"
             "/* int h() { */\nint main(int argc, char** argv) {\n  if (x) { y(); }\n}\n}  // namespace a\n",
        "python": "import os\n\nclass A(B):\n    \"\"\"doc\n    def not_this():\n    \"\"\"\n"
                  "    def f(self):\n        pass\n\n    async def g(self): ...\n\n@dec\ndef h(*a, **k):\n"
                  "    s = '''\ndef nope():\n'''\n    return 1\n",
        "javascript": "export function f(a) {}\nexport default class A extends B {\n  m = () => 1;\n"
                      "  static async g() {}\n}\nconst h = (x) => x;\nlet i = function () {};\n"
                      "interface I { a: string }\ntype T = A | B;\nenum E { A }\nnamespace N {}\n"
                      "declare module \"m\" {}\nconst s = `\nfunction nope() {}\n`;\n",
        "go": "package main\n\nfunc main() {\n}\n\nfunc (r *R) M() error { return nil }\n\ntype (\n"
              "\tA int\n\tB struct{ x int }\n)\ntype C interface{}\nvar s = `\nfunc nope() {}\n`\n",
        "rust": "mod m {\n    pub fn f() -> i32 { 1 }\n}\nstruct S { a: u8 }\nimpl Tr for S {\n"
                "    fn g(&self) {}\n}\ntrait Tr { fn g(&self); }\nmacro_rules! mac { () => {} }\n"
                "pub(crate) enum E { A }\nunion U { a: u8 }\ntype T = u8;\nconst R: &str = r#\"fn nope() {}\"#;\n",
        "java": "package p;\n@interface Ann {}\npublic class A<T> extends B implements C {\n"
                "  private int x;\n  public A() {}\n  @Override\n  public <U> U m(int a) throws E {\n"
                "    return null;\n  }\n  enum E { X }\n  record R(int a) {}\n  interface I {}\n}\n",
        "shell": "#!/bin/sh\nf() {\n  echo\n}\nfunction g {\n  cat <<EOF\nh() {\nEOF\n}\n",
        "yaml": "a: 1\nb:\n  c: 2\n---\nd: [1]\n\"e f\": x\n# comment: no\n- item\n",
    }
    for i, kind in enumerate(kinds):
        put("outline", kind, bytes([i]) + samples[kind].encode())
    # A file of this repository per kind, its first 3 KB, named without its extension so that
    # no seed passes for a source file (the format check reads every *.cc and *.h).
    for i, path in [(0, "docs/safety.md"), (1, "core/outline/outline.h"), (1, "core/policy/glob.cc"),
                    (7, "scripts/build.sh"), (8, ".clang-format")]:
        full = os.path.join(ROOT, path)
        if os.path.exists(full):
            with open(full, "rb") as f:
                name = "repo-" + path.replace("/", "_").replace(".", "_")
                put("outline", name, bytes([i]) + f.read(3000))


def git(repo, *args, env=None):
    e = dict(os.environ, GIT_AUTHOR_NAME="A", GIT_AUTHOR_EMAIL="a@example.test",
             GIT_COMMITTER_NAME="A", GIT_COMMITTER_EMAIL="a@example.test",
             GIT_AUTHOR_DATE="1700000000 +0000", GIT_COMMITTER_DATE="1700000000 +0000",
             GIT_CONFIG_GLOBAL="/dev/null", GIT_CONFIG_NOSYSTEM="1")
    if env:
        e.update(env)
    return subprocess.run(["git", "-C", repo] + list(args), check=True, env=e,
                          stdout=subprocess.PIPE).stdout


def make_repo(tmp):
    repo = os.path.join(tmp, "repo")
    subprocess.run(["git", "init", "-q", "-b", "main", repo], check=True)
    text = "".join("line %d of a file that changes a little\n" % i for i in range(60))
    for n in range(6):
        os.makedirs(os.path.join(repo, "src", "d%d" % (n % 2)), exist_ok=True)
        with open(os.path.join(repo, "src", "d%d" % (n % 2), "f.txt"), "w") as f:
            f.write(text.replace("line %d " % (n * 7), "LINE %d " % n))
        with open(os.path.join(repo, "README.md"), "w") as f:
            f.write("# r\n" + "x" * n + "\n")
        git(repo, "add", "-A")
        git(repo, "commit", "-q", "-m", "c%d" % n,
            env={"GIT_COMMITTER_DATE": "%d +0000" % (1700000000 + n * 60)})
        if n == 2:
            git(repo, "checkout", "-q", "-b", "side")
            with open(os.path.join(repo, "side.txt"), "w") as f:
                f.write("side\n")
            git(repo, "add", "-A")
            git(repo, "commit", "-q", "-m", "side")
            git(repo, "checkout", "-q", "main")
            git(repo, "merge", "-q", "--no-ff", "-m", "merge", "side")
    return repo


def pack_seeds(repo):
    packdir = os.path.join(repo, ".git", "objects", "pack")
    for name, cfg in [("ofs-delta", []), ("ref-delta", ["-c", "repack.useDeltaBaseOffset=false"])]:
        subprocess.run(["git", "-C", repo] + cfg + ["-c", "pack.writeReverseIndex=true", "repack",
                        "-a", "-d", "-f", "-q", "--window=20", "--depth=10"], check=True)
        base = [f[:-5] for f in os.listdir(packdir) if f.endswith(".pack")][0]
        read = lambda ext: open(os.path.join(packdir, base + ext), "rb").read()
        idx, pack = read(".idx"), read(".pack")
        rev = read(".rev") if os.path.exists(os.path.join(packdir, base + ".rev")) else b""
        put("pack", name, bytes([0]) + part(idx) + part(rev) + pack)
        put("pack", name + "-no-rev", bytes([0]) + part(idx) + part(b"") + pack)


def graph_seeds(repo):
    info = os.path.join(repo, ".git", "objects", "info")
    for name, args in [("plain", []), ("bloom", ["--changed-paths"])]:
        git(repo, "commit-graph", "write", "--reachable", *args)
        put("commit_graph", name, open(os.path.join(info, "commit-graph"), "rb").read())
        os.remove(os.path.join(info, "commit-graph"))
    # A chain of two layers: the first commits, then the rest.
    git(repo, "commit-graph", "write", "--reachable", "--changed-paths", "--split=no-merge")
    git(repo, "checkout", "-q", "-b", "more")
    with open(os.path.join(repo, "new.txt"), "w") as f:
        f.write("new\n")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "more")
    git(repo, "commit-graph", "write", "--reachable", "--changed-paths", "--split=no-merge")
    chain_dir = os.path.join(info, "commit-graphs")
    names = open(os.path.join(chain_dir, "commit-graph-chain")).read().split()
    layers = [open(os.path.join(chain_dir, "graph-%s.graph" % n), "rb").read() for n in names]
    body = bytes([len(layers) - 1])
    for i, layer in enumerate(layers):
        body += layer if i + 1 == len(layers) else part(layer)
    put("graph_chain", "two-layers", bytes([0]) + body)
    put("graph_chain", "one-layer", bytes([0, 0]) + layers[0])
    put("graph_chain", "chain-given", bytes([1]) + part(("\n".join(names) + "\n").encode()) + body)
    put("commit_graph", "layer-top", layers[-1])


def index_file(blobs, paths=(), parts=(), commit=b"\x11" * 20, policy=0x1234):
    """A text index file (core/index/text_index.h, format 4), written here from the format the
    header documents rather than by the server's writer. blobs: (kind, bytes) with kind 0 text,
    1 binary, 2 unread, each id git's blob id of its bytes; paths: (path, blob number,
    executable); parts: (position, paths, key, tree id, first)."""
    def fold(c):
        return c + 32 if 65 <= c <= 90 else c
    ids = [hashlib.sha1(b"blob %d\0" % len(data) + data).digest() for _, data in blobs]
    postings = {}
    for number, (kind, data) in enumerate(blobs):
        if kind != 0:
            continue
        seen = set()
        for i in range(2, len(data)):
            if 10 in data[i - 2:i + 1]:
                continue
            seen.add(fold(data[i - 2]) << 16 | fold(data[i - 1]) << 8 | fold(data[i]))
        for t in seen:
            postings.setdefault(t, []).append(number)
    def varint(v):
        out = b""
        while v >= 0x80:
            out += bytes([(v & 0x7F) | 0x80])
            v >>= 7
        return out + bytes([v])
    body = b"".join(ids) + bytes(kind for kind, _ in blobs)
    body += b"".join(struct.pack("<I", b) for b in sorted(range(len(blobs)), key=lambda b: ids[b]))
    body += b"".join(struct.pack("<I", len(data) if kind == 0 else 0) for kind, data in blobs)
    table, lists = b"", b""
    for t in sorted(postings):
        table += struct.pack("<II", t, len(lists))
        last = None
        for b in postings[t]:
            lists += varint(b if last is None else b - last)
            last = b
    body += table + struct.pack("<I", len(lists)) + lists
    text = b""
    for path, blob, executable in paths:
        body += struct.pack("<II", blob | (0x80000000 if executable else 0), len(text))
        text += path.encode()
    body += struct.pack("<I", len(text)) + text
    for position, count, key, tree, first in parts:
        body += struct.pack("<IIQ", position, count, key) + tree + struct.pack("<I", first)
    text_bytes = sum(len(data) for kind, data in blobs if kind == 0)
    head = b"RRTXTIDX" + struct.pack("<II", 4, 104) + struct.pack("<QQ", 104 + len(body), 0)
    head += commit + b"\0" * 4 + struct.pack("<QQIII", policy, text_bytes, len(blobs),
                                               len(postings), len(paths))
    head += struct.pack("<QQI", len(lists), len(text), len(parts))
    assert len(head) == 104
    def fnv(data, h):
        for c in data:
            h = ((h ^ c) * 1099511628211) & 0xFFFFFFFFFFFFFFFF
        return h
    whole = head + body
    digest = fnv(whole[32:], fnv(whole[:24], 1469598103934665603))
    return whole[:24] + struct.pack("<Q", digest) + whole[32:]


def index_files():
    shard = [(0, b"int main(void) {\n  return orgtoken_0042;\n}\n"),
             (0, b"# Read Me\nSearch ME across the ORGANISATION\n"), (1, b"\x00\x01binary\xff"),
             (2, b"x" * 40), (0, b"ab\nc"), (0, b"")]
    put("index_file", "shard", bytes([0]) + index_file(shard))
    paths = [("README.md", 1, False), ("bin/run", 0, True), ("logo.png", 2, False),
             ("src/big.txt", 3, False)]
    tree = bytes(range(20))
    put("index_file", "list", bytes([0]) + index_file(shard[:4], paths))
    put("index_file", "list-with-parts", bytes([0]) + index_file(
        shard[:4], paths, [(1, 12, 0xFEEDFACECAFEBEEF, tree, 0), (4, 3, 7, tree, 12)]))
    put("index_file", "empty", bytes([0]) + index_file([]))
    # Larger than IndexFile::kCopiedBelow (16 KiB): mapped rather than read.
    many = [(0, ("file %d: token_%05d and more text\n" % (i, i)).encode()) for i in range(400)]
    put("index_file", "mapped", bytes([0]) + index_file(
        many, [("f/%03d.txt" % i, i, False) for i in range(400)]))
    # The digest left stale: flag 1 writes it again.
    put("index_file", "stale-digest", bytes([1]) + index_file(shard[:2])[:-1] + b"!")


def http_head():
    body = b'{"jsonrpc":"2.0","id":1,"method":"ping"}'
    put("http_head", "post", b"POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:8080\r\nContent-Type: application/json\r\n"
        b"Accept: application/json, text/event-stream\r\nMCP-Protocol-Version: 2025-06-18\r\n"
        b"Authorization: Bearer abc\r\nContent-Length: %d\r\n\r\n" % len(body) + body)
    chunked = b"%x\r\n%s\r\n0\r\n\r\n" % (len(body), body)
    put("http_head", "chunked", b"POST /mcp HTTP/1.1\r\nHost: localhost:1\r\nTransfer-Encoding: chunked\r\n"
        b"Origin: http://localhost:1\r\n\r\n" + chunked)
    put("http_head", "pipelined", b"GET /healthz HTTP/1.1\r\nHost: a\r\n\r\n"
        b"GET /metrics HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n")
    put("http_head", "http10", b"GET / HTTP/1.0\r\n\r\n")
    put("http_head", "folded", b"POST /mcp HTTP/1.1\r\nX-A: one\r\n two\r\nMcp-Name: =?base64?YQ==?=\r\n"
        b"Content-Length: 2\r\n\r\n{}")
    put("http_head", "bad-head", b"POST  /mcp HTTP/9\r\nNo colon here\r\n\r\n")
    put("http_head", "long-field", b"GET / HTTP/1.1\r\nX: " + b"v" * 9000 + b"\r\n\r\n")
    put("http_head", "lf-only", b"DELETE /mcp HTTP/1.1\nHost: h\nContent-Length: -1\n\n")


def stdio_frame():
    # Byte 0: the limit (1 + b % 64); byte 1: how the stream is cut into chunks; then the stream.
    call = b'{"jsonrpc":"2.0","id":12,"method":"tools/call","params":{"name":"read_file"}}'
    put("stdio_frame", "messages", b"\x3f\x05" + b'{"id":1}\n\n{"id":"a"}\r\n\r\n{"id":2}')
    put("stdio_frame", "oversized-with-id", b"\x1f\x09" + call + b"\n" + b'{"id":3}\n')
    put("stdio_frame", "oversized-string-id",
        b"\x10\x21" + b'{"jsonrpc":"2.0","id":"k\\u00e9\\"y","method":"ping"}\n')
    put("stdio_frame", "oversized-last-line", b"\x08\x02" + b'{"id":1}\n' + call)
    put("stdio_frame", "carriage-returns", b"\x04\x07" + b"\r\r\n\r\nab\r\n\r")
    put("stdio_frame", "huge-id", b"\x20\x03" + b'{"id":123456789012345678901234,"method":"x"}\n')


def http_checks():
    # Three headers (a presence byte, then a part each), the body's method, the negotiated
    # version, a byte choosing HTTP or stdio and the name parameter, then the params as JSON.
    def case(name, version, method_h, name_h, method, negotiated, which, params):
        def header(v):
            return b"\x00" + part(b"") if v is None else b"\x01" + part(v.encode())
        put("http_checks", name, header(version) + header(method_h) + header(name_h) +
            part(method.encode()) + part(negotiated.encode()) + bytes([which]) + params.encode())
    meta = ('{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",'
            '"io.modelcontextprotocol/clientCapabilities":{}},"name":"read_file",'
            '"uri":"repo://shop/README.md"}')
    case("modern-call", "2026-07-28", "tools/call", "read_file", "tools/call", "", 3, meta)
    case("modern-base64-name", "2026-07-28", "tools/call", "=?base64?cmVhZF9maWxl?=",
         "tools/call", "", 3, meta)
    case("modern-bad-base64", "2026-07-28", "tools/call", "=?base64?cmVhZ=9maWxl?=",
         "tools/call", "", 3, meta)
    case("modern-mismatch", "2025-06-18", "tools/list", "other", "tools/call", "", 3, meta)
    case("modern-no-meta", "2026-07-28", "tools/call", None, "tools/call", "", 1,
         '{"name":"grep"}')
    case("meta-wrong-types", None, None, None, "resources/read", "", 5,
         '{"_meta":{"io.modelcontextprotocol/protocolVersion":7,'
         '"io.modelcontextprotocol/clientCapabilities":[]},"uri":{}}')
    case("legacy-header", "2025-03-26", None, None, "tools/list", "2025-03-26", 1, "{}")
    case("unknown-version", "1999-01-01" + "x" * 300, None, None, "ping", "", 1, "{}")
    case("discover", None, None, None, "server/discover", "", 0, "{}")
    case("batch-stdio", None, None, None, "ping", "2025-03-26", 0, "[]")


def config():
    # The configuration's documented examples (every yaml block of docs/configuration.md), the
    # YAML target's configuration seed, and hostile shapes: an alias bomb of repository entries,
    # every section with values of the wrong type.
    import re
    with open(os.path.join(ROOT, "docs", "configuration.md")) as f:
        blocks = re.findall(r"```yaml\n(.*?)```", f.read(), re.S)
    for i, block in enumerate(blocks):
        put("config", "doc-%02d" % i, block)
    with open(os.path.join(CORPUS, "yaml", "config")) as f:
        put("config", "yaml-config", f.read())
    put("config", "alias-bomb", "a: &a {name: r, path: .}\nb: &b [*a, *a, *a, *a]\n"
        "c: &c [*b, *b, *b, *b]\nd: &d [*c, *c, *c, *c]\nrepos: [*d, *d, *d, *d]\n")
    put("config", "wrong-types", "repos: {a: 1}\nmirrors: 7\ngroups: [[]]\nhttp: [x]\n"
        "plugins: {}\nguidance: yes\nlimits: {answer_characters: -1}\ncache_folder: [1]\n")
    put("config", "groups", "groups:\n  - host: github\n    org: acme\n    token_env: GH_TOKEN\n"
        "    include: ['svc-*']\nmirror_folder: mirrors\n")


def host_pages():
    def page(status, headers, body):
        out = bytes([status, 0])
        for h in headers:
            out += part(h.encode())
        return out + body.encode()
    gh = ('[{"full_name":"acme/shop","description":"Shop","default_branch":"main","archived":false,'
          '"fork":true},{"full_name":"acme/docs","description":null}]')
    put("github_page", "page", page(0, ['<https://api.example.test/orgs/acme/repos?page=2>; rel="next", '
                                        '<https://api.example.test/orgs/acme/repos?page=9>; rel="last"',
                                        "", "", ""], gh))
    put("github_page", "rate-limited", page(5, ["", "", "0", ""], '{"message":"rate"}'))
    put("github_page", "not-a-list", page(0, ["", "", "", ""], '{"a":[]}'))
    gl = ('[{"path_with_namespace":"grp/sub/app","description":"App","default_branch":"main",'
          '"archived":true,"empty_repo":false}]')
    put("gitlab_page", "page", page(0, ["", "2", "", ""], gl))
    put("gitlab_page", "retry", page(7, ["", "", "", "120"], "{}"))
    put("gitlab_page", "missing-path", page(0, ["", "", "", ""], '[{"name":"x"}]'))
    bb = ('{"values":[{"full_name":"ws/repo","description":"R","mainbranch":{"name":"main"}}],'
          '"next":"https://api.example.test/2.0/repositories/ws?page=2"}')
    put("bitbucket_page", "page", page(0, ["", "", "", ""], bb))
    put("bitbucket_page", "unauthorised", page(4, ["", "", "", ""], ""))
    put("bitbucket_page", "no-values", page(0, ["", "", "", ""], '{"values":{}}'))


def secrets():
    """Inputs of fuzz/secrets_fuzz.cc: a kind byte (0 file, 1 diff, 2 commit message), the
    path as a part, then the text. Placeholders and short made-up values only: no seed looks
    like a credential."""
    def case(kind, path, text):
        return bytes([kind]) + part(path.encode()) + text.encode()
    put("secrets", "yaml-settings", case(0, "config/app.yml",
        "db:\n  password: ${DB_PASSWORD:-changeme}\n  api_key: <your-key>\n"
        "  token: value with some words here\n  apikey_service: \"ab{c)d\"\n"))
    put("secrets", "env-and-shell", case(0, "deploy/.env",
        "export PGPASSWORD=\"${PGPASSWORD:=x}\"\nSECRET_KEY=changethis\n"
        "curl -u user:pass https://h/ -H 'Authorization: Bearer xyz'\n"))
    put("secrets", "go-pasted", case(0, "internal/config.go",
        "db_pass := m{{h}o)p${e]x(y[z>-_$#w}},\npassword = cfg.Get(\"db\")[0]\n"))
    put("secrets", "kubernetes", case(0, "deploy/secret.yaml",
        "apiVersion: v1\nkind: Secret\ndata:\n  # a comment\n  key: eA==  # note\n"
        "stringData:\n  pw: \"x\"\n---\nkind: ConfigMap\n"))
    put("secrets", "prose", case(2, "",
        "The password is in the vault. Password - Title Case\nthe db password is x1!\n"
        "echo \"Pass: no-op when unset\"\nпароль: x\n"))
    put("secrets", "tokens-outline", case(0, "notes/case.txt",
        "Mabc.defghi.jkl eyJhbGciOiJub25lIn0.eyJ4Ijp7fQ\n-----BEGIN PRIVATE KEY----- words "
        "-----END PRIVATE KEY-----\nhttps://u:p@h/ ghp_ xoxb- AKIA\n"))
    put("secrets", "diff", case(1, "app/settings.py",
        "@@ -1,2 +1,2 @@\n-API_KEY = \"old\"\n+API_KEY = os.environ[\"API_KEY\"]\n"))


def main():
    jsonrpc()
    yaml()
    front_matter()
    glob()
    ere()
    ref_text()
    outline()
    http_head()
    stdio_frame()
    http_checks()
    config()
    host_pages()
    secrets()
    index_files()
    tmp = tempfile.mkdtemp(prefix="rr-seeds-")
    try:
        repo = make_repo(tmp)
        pack_seeds(repo)
        graph_seeds(repo)
    finally:
        shutil.rmtree(tmp)
    return 0


if __name__ == "__main__":
    sys.exit(main())
