#!/usr/bin/env python3
"""The secret filter measured on data written by others: the per-rule test cases of a public
scanner's rule set, read at run time from a checkout of that scanner. Nothing of theirs is kept
in this repository; only this script, which reads their files when it runs.

  bench/secrets/public_cases.py --gitleaks PATH [--list N] [--rule ID] [--plugin-folder DIR]

PATH is a checkout of gitleaks (or a bare clone: read with `git show HEAD:…`): its rules with
their true and false positives, cmd/generate/config/rules/*.go, and the generator's syntaxes and
pattern pieces, cmd/generate/config/utils/generate.go.

gitleaks writes most true positives with a generator (a random value from the rule's pattern,
set in twenty-odd syntaxes); this script evaluates that Go by a small interpreter of the few
forms the rule files use (string literals and +, []string{…}, map[string]string{…}, append,
the generator calls, fmt.Sprintf), and draws random values from the patterns with a seeded
generator, so that a run is repeatable. A case it cannot evaluate is counted and named, never
guessed.

Each true positive is scanned as the case is written, and its secret value (the part of the
case the rule's pattern takes as the secret) is then written again in the syntaxes of
SYNTAXES below, each in a file of a name that says the syntax. Each false positive is scanned
as written. The filter is the one the server loads: secrets-bench (bench/secrets/run.sh builds
it) scans every record with the built-in detectors; a secret counts as caught only when every
byte of every occurrence of it is hidden, a false positive when anything in the case is hidden.

Prints recall and the false-positive rate overall, by syntax and by rule (the rules with a
miss or a false positive), then the misses and false positives. Not a test; never run in CI.
"""

import argparse
import base64
import json
import os
import random
import re
import subprocess
import sys
from collections import defaultdict

try:
    import re._parser as sre_parse  # Python 3.11+
    import re._constants as sre_c
except ImportError:  # pragma: no cover
    import sre_parse  # type: ignore
    import sre_constants as sre_c  # type: ignore

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))


# ---- reading a checkout -----------------------------------------------------------------------


class Tree:
    """A checkout or a bare clone, read the same way."""

    def __init__(self, path):
        self.path = path
        self.bare = not os.path.isdir(os.path.join(path, ".git")) and os.path.isfile(
            os.path.join(path, "HEAD"))
        if not self.bare and not os.path.isdir(path):
            sys.exit(f"public_cases: {path} is neither a checkout nor a bare clone")

    def git(self, *args):
        base = ["git", "--git-dir", self.path] if self.bare else ["git", "-C", self.path]
        return subprocess.run(base + list(args), check=True, capture_output=True).stdout

    def list(self, folder):
        if self.bare:
            out = self.git("ls-tree", "--name-only", "HEAD", folder.rstrip("/") + "/")
            return sorted(out.decode().split())
        full = os.path.join(self.path, folder)
        return sorted(os.path.join(folder, n) for n in os.listdir(full))

    def read(self, path):
        if self.bare:
            return self.git("show", "HEAD:" + path).decode("utf-8", "replace")
        with open(os.path.join(self.path, path), encoding="utf-8", errors="replace") as f:
            return f.read()

    def commit(self):
        try:
            return self.git("rev-parse", "HEAD").decode().strip()
        except Exception:
            return "unknown"


# ---- drawing a random string from a pattern ---------------------------------------------------

PRINTABLE = [chr(c) for c in range(0x21, 0x7F)]
WORD = [chr(c) for c in range(0x30, 0x3A)] + [chr(c) for c in range(0x41, 0x5B)] + [
    chr(c) for c in range(0x61, 0x7B)] + ["_"]
CATEGORIES = {
    sre_c.CATEGORY_DIGIT: [str(d) for d in range(10)],
    sre_c.CATEGORY_WORD: WORD,
    sre_c.CATEGORY_SPACE: [" "],
    sre_c.CATEGORY_NOT_DIGIT: [c for c in WORD if not c.isdigit()],
    sre_c.CATEGORY_NOT_WORD: list("-.:/+= "),
    sre_c.CATEGORY_NOT_SPACE: WORD,
}


def go_to_python_pattern(p):
    """Go RE2 syntax the Python engine reads differently."""
    p = p.replace(r"\z", r"\Z")
    posix = {"[:alnum:]": "a-zA-Z0-9", "[:alpha:]": "a-zA-Z", "[:digit:]": "0-9",
             "[:xdigit:]": "0-9a-fA-F", "[:upper:]": "A-Z", "[:lower:]": "a-z",
             "[:space:]": r"\s", "[:punct:]": r"!-/:-@\[-`{-~", "[:word:]": r"\w"}
    for k, v in posix.items():
        p = p.replace(k, v)
    flags = 0
    if "(?i)" in p:
        flags |= re.IGNORECASE
        p = p.replace("(?i)", "")
    p = re.sub(r"\\p\{?L\}?", "a-zA-Z", p)
    return p, flags


class Generator:
    def __init__(self, seed):
        self.rng = random.Random(seed)

    def sample(self, pattern):
        p, flags = go_to_python_pattern(pattern)
        tree = sre_parse.parse(p, flags)
        return self._seq(tree)

    def _set(self, items):
        chars, negate = [], False
        for op, av in items:
            if op is sre_c.NEGATE:
                negate = True
            elif op is sre_c.LITERAL:
                chars.append(chr(av))
            elif op is sre_c.RANGE:
                chars.extend(chr(c) for c in range(av[0], av[1] + 1))
            elif op is sre_c.CATEGORY:
                chars.extend(CATEGORIES.get(av, WORD))
        if negate:
            banned = set(chars)
            chars = [c for c in WORD if c not in banned] or ["x"]
        return chars or ["x"]

    def _seq(self, tree):
        out = []
        for op, av in tree:
            out.append(self._node(op, av))
        return "".join(out)

    def _node(self, op, av):
        r = self.rng
        if op is sre_c.LITERAL:
            return chr(av)
        if op is sre_c.NOT_LITERAL:
            return r.choice([c for c in WORD if ord(c) != av])
        if op is sre_c.ANY:
            return r.choice(WORD)
        if op is sre_c.IN:
            return r.choice(self._set(av))
        if op in (sre_c.MAX_REPEAT, sre_c.MIN_REPEAT, getattr(sre_c, "POSSESSIVE_REPEAT", None)):
            lo, hi, sub = av
            if hi == sre_c.MAXREPEAT:
                hi = lo + 1  # as the scanner's generator draws an unbounded repeat, once more
            n = r.randint(lo, hi)
            return "".join(self._seq(sub) for _ in range(n))
        if op is sre_c.SUBPATTERN:
            return self._seq(av[-1])
        if op is sre_c.BRANCH:
            return self._seq(r.choice(av[1]))
        if op is sre_c.CATEGORY:
            return r.choice(CATEGORIES.get(av, WORD))
        if op in (sre_c.AT, sre_c.ASSERT, sre_c.ASSERT_NOT, sre_c.GROUPREF):
            return ""
        raise ValueError(f"cannot draw from {op}")


# ---- a small interpreter of the rule files' Go ------------------------------------------------

TOKEN = re.compile(r"""
    (?P<ws>[ \t\r]+|\n)
  | (?P<comment>//[^\n]*|/\*.*?\*/)
  | (?P<raw>`[^`]*`)
  | (?P<str>"(?:\\.|[^"\\\n])*")
  | (?P<rune>'(?:\\.|[^'\\\n])+')
  | (?P<num>[0-9]+(?:\.[0-9]+)?)
  | (?P<ident>[A-Za-z_][A-Za-z_0-9]*(?:\.[A-Za-z_][A-Za-z_0-9]*)*)
  | (?P<op>\.\.\.|:=|==|!=|&&|\|\||<=|>=|\+=|[-+*/%(){}\[\],:;=<>!&|^.])
""", re.S | re.X)


def go_unquote(s):
    if s[0] == "`":
        return s[1:-1].replace("\r", "")
    body = s[1:-1]
    out, i = [], 0
    simple = {"n": "\n", "t": "\t", "r": "\r", "\\": "\\", '"': '"', "'": "'", "a": "\a",
              "b": "\b", "f": "\f", "v": "\v"}
    while i < len(body):
        c = body[i]
        if c != "\\":
            out.append(c)
            i += 1
            continue
        e = body[i + 1]
        if e in simple:
            out.append(simple[e])
            i += 2
        elif e == "x":
            out.append(chr(int(body[i + 2:i + 4], 16)))
            i += 4
        elif e == "u":
            out.append(chr(int(body[i + 2:i + 6], 16)))
            i += 6
        elif e == "U":
            out.append(chr(int(body[i + 2:i + 10], 16)))
            i += 10
        else:
            out.append(chr(int(body[i + 1:i + 4], 8)))
            i += 4
    return "".join(out)


def tokenize(src):
    toks = []
    for m in TOKEN.finditer(src):
        kind = m.lastgroup
        if kind in ("ws", "comment"):
            if kind == "ws" and m.group() == "\n":
                toks.append(("nl", "\n"))
            continue
        toks.append((kind, m.group()))
    return toks


class Unsupported(Exception):
    pass


class Case:
    __slots__ = ("text", "path")

    def __init__(self, text, path=None):
        self.text, self.path = text, path


def read_generator_facts(tree):
    """The constants gitleaks builds its patterns from and the syntaxes its sample generator
    writes a secret in, read from its utils/generate.go at run time (nothing of it is kept
    here)."""
    src = tree.read("cmd/generate/config/utils/generate.go")
    toks = tokenize(src)
    consts = {}
    i = 0
    while i < len(toks):
        if toks[i] == ("ident", "const") and toks[i + 1][1] == "(":
            j = i + 2
            while toks[j][1] != ")":
                if toks[j][0] == "ident" and toks[j + 1][1] == "=":
                    it = Interp(toks, None, {}, [])
                    it.i = j + 2
                    consts[toks[j][1]] = it.expr()
                    j = it.i
                else:
                    j += 1
            break
        i += 1
    templates = []
    for name, _, body, _ in find_functions(toks):
        if name != "GenerateSampleSecrets":
            continue
        for k in range(len(body) - 2):
            if body[k] == ("ident", "samples") and body[k + 1][1] == ":=":
                it = Interp(body, None, {}, [])
                it.i = k + 2
                templates = [c.text for c in it.expr()]
                break
    if not consts or not templates:
        sys.exit("public_cases: this gitleaks' utils/generate.go is not read as expected")
    return consts, templates


class Interp:
    """Evaluates the expressions of one rule function."""

    consts, templates = {}, []  # read_generator_facts' answer

    def __init__(self, toks, gen, helpers, samples):
        self.toks, self.i, self.gen, self.helpers = toks, 0, gen, helpers
        self.env = {}
        self.samples = samples  # every secret given to the sample generator, for this rule

    def peek(self, k=0):
        j = self.i
        seen = -1
        while j < len(self.toks):
            if self.toks[j][0] != "nl":
                seen += 1
                if seen == k:
                    return self.toks[j]
            j += 1
        return ("eof", "")

    def next(self):
        while self.i < len(self.toks) and self.toks[self.i][0] == "nl":
            self.i += 1
        if self.i >= len(self.toks):
            raise Unsupported("end of input")
        t = self.toks[self.i]
        self.i += 1
        return t

    def expect(self, v):
        t = self.next()
        if t[1] != v:
            raise Unsupported(f"expected {v}, got {t[1]}")

    def skip_balanced(self):
        """Skips one expression's tokens up to a ',' or closing bracket at depth 0."""
        depth = 0
        while True:
            t = self.peek()
            if t[0] == "eof":
                return
            if depth == 0 and t[1] in (",", "}", ")", "]"):
                return
            self.next()
            if t[1] in "({[":
                depth += 1
            elif t[1] in ")}]":
                depth -= 1

    # expressions: values are str, int, bool, None, list (of str or Case), dict
    def expr(self):
        v = self.unary()
        while self.peek()[1] == "+":
            self.next()
            w = self.unary()
            if isinstance(v, str) and isinstance(w, str):
                v = v + w
            elif isinstance(v, int) and isinstance(w, int):
                v = v + w
            else:
                raise Unsupported("+ of these values")
        return v

    def unary(self):
        t = self.next()
        kind, val = t
        if kind in ("str", "raw"):
            return go_unquote(val)
        if kind == "num":
            return float(val) if "." in val else int(val)
        if val == "[":
            self.expect("]")
            typ = self.next()[1]
            if typ == "*":
                typ = self.next()[1]
            return self.composite_list()
        if val == "map":
            self.expect("[")
            self.next()
            self.expect("]")
            self.next()
            return self.composite_map()
        if kind == "ident":
            if val in ("nil",):
                return None
            if val in ("true", "false"):
                return val == "true"
            if self.peek()[1] == "(":
                return self.call(val)
            if self.peek()[1] == "{" and val[:1].isupper() or val.startswith("config."):
                if self.peek()[1] == "{":
                    return self.composite_struct()
            if val in self.env:
                return self.env[val]
            raise Unsupported(f"unknown name {val}")
        if val == "(":
            v = self.expr()
            self.expect(")")
            return v
        raise Unsupported(f"unexpected {val}")

    def composite_list(self):
        self.expect("{")
        out = []
        while self.peek()[1] != "}":
            if self.peek()[1] == "{":  # an element of a struct type written bare
                self.next()
                depth = 1
                while depth:
                    t = self.next()[1]
                    depth += t == "{"
                    depth -= t == "}"
                out.append(None)
            else:
                out.append(self.expr())
            if self.peek()[1] == ",":
                self.next()
        self.expect("}")
        return out

    def composite_map(self):
        self.expect("{")
        out = []
        while self.peek()[1] != "}":
            k = self.expr()
            self.expect(":")
            v = self.expr()
            out.append(Case(v, k))
            if self.peek()[1] == ",":
                self.next()
        self.expect("}")
        return out

    def composite_struct(self):
        self.expect("{")
        out = {}
        while self.peek()[1] != "}":
            key = self.next()[1]
            self.expect(":")
            start = self.i
            try:
                out[key] = self.expr()
            except Unsupported:
                self.i = start
                self.skip_balanced()
                out[key] = Unsupported
            if self.peek()[1] == ",":
                self.next()
        self.expect("}")
        return out

    def args(self):
        self.expect("(")
        out, spread = [], False
        while self.peek()[1] != ")":
            out.append(self.expr())
            if self.peek()[1] == "...":
                self.next()
                spread = True
            if self.peek()[1] == ",":
                self.next()
        self.expect(")")
        return out, spread

    def call(self, name):
        args, spread = self.args()
        short = name.split(".")[-1]
        sizes = {"Numeric": "[0-9]{%s}", "Hex": "[a-f0-9]{%s}", "AlphaNumeric": "[a-z0-9]{%s}",
                 "AlphaNumericExtendedShort": "[a-z0-9_-]{%s}",
                 "AlphaNumericExtended": r"[a-z0-9=_\-]{%s}",
                 "AlphaNumericExtendedLong": r"[a-z0-9\/=_\+\-]{%s}"}
        if name.startswith("utils.") and short in sizes:
            return sizes[short] % args[0]
        if short == "Hex8_4_4_4_12":
            return "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"
        if name in ("secrets.NewSecret", "newPlausibleSecret"):
            try:
                return self.gen.sample(args[0])
            except Exception as e:  # a pattern Python's parser does not read
                raise Unsupported(f"cannot draw from {args[0]!r}: {e}")
        if name == "utils.GenerateSampleSecrets":
            ident, secret = args
            self.samples.append(secret)
            return [s.replace("{i}", ident).replace("{I}", ident.upper()).replace("{s}", secret)
                    for s in Interp.templates]
        if name == "utils.GenerateSampleSecret":
            self.samples.append(args[1])
            return f'{args[0]}_api_token = "{args[1]}"'
        if name == "append":
            base = list(args[0] or [])
            if spread:
                return base + list(args[-1] or []) if len(args) == 2 else base
            return base + list(args[1:])
        if name == "fmt.Sprintf":
            fmt, rest = args[0], list(args[1:])

            def sub(m):
                if m.group() == "%%":
                    return "%"
                return str(rest.pop(0))
            return re.sub(r"%[-+# 0-9.]*[sdvqx%]", sub, fmt)
        if name == "strings.Repeat":
            return args[0] * args[1]
        if name == "strings.ToUpper":
            return args[0].upper()
        if name == "strings.ToLower":
            return args[0].lower()
        if name == "strings.Join":
            return args[1].join(args[0])
        if name == "regexp.MustCompile":
            return ("regex", args[0])
        if name == "utils.GenerateUniqueTokenRegex":
            c = Interp.consts
            return ("regex", (c["caseInsensitive"] if args[1] else "") + c["secretPrefixUnique"] +
                    args[0] + c["secretSuffix"])
        if name == "utils.GenerateSemiGenericRegex":
            c = Interp.consts
            ids = c["identifierPrefix"] + "|".join(args[0]) + c["identifierSuffix"]
            head = (c["caseInsensitive"] + ids if args[2] else
                    c["identifierCaseInsensitivePrefix"] + ids + c["identifierCaseInsensitiveSuffix"])
            return ("regex", head + c["operator"] + c["secretPrefix"] + args[1] + c["secretSuffix"])
        if name == "utils.MergeRegexps":
            return ("regex", "|".join(a[1] for a in args))
        if name in self.helpers:
            return self.helpers[name](self)
        raise Unsupported(f"call of {name}")


def find_functions(toks):
    """(name, returns a rule, body tokens) of each top-level function."""
    out = []
    i = 0
    while i < len(toks):
        if toks[i] == ("ident", "func") and i + 1 < len(toks) and toks[i + 1][0] == "ident":
            name = toks[i + 1][1]
            j = i + 2
            while j < len(toks) and toks[j][1] != "{":
                j += 1
            sig = " ".join(t[1] for t in toks[i:j])
            depth, k = 0, j
            while k < len(toks):
                if toks[k][1] == "{":
                    depth += 1
                elif toks[k][1] == "}":
                    depth -= 1
                    if depth == 0:
                        break
                k += 1
            out.append((name, "config.Rule" in sig, toks[j + 1:k], sig))
            i = k + 1
        else:
            i += 1
    return out


def package_vars(toks, gen, helpers):
    """The values of a file's top-level `var name = …` declarations that evaluate."""
    env = {}
    depth = 0
    for i, (kind, val) in enumerate(toks):
        if val == "{":
            depth += 1
        elif val == "}":
            depth -= 1
        elif depth == 0 and val == "var" and i + 2 < len(toks) and toks[i + 2][1] == "=":
            it = Interp(toks, gen, helpers, [])
            it.env = env
            it.i = i + 3
            try:
                env[toks[i + 1][1]] = it.expr()
            except (Unsupported, IndexError, ValueError):
                pass
    return env


def run_function(body, gen, helpers, env=None):
    """Runs the statements of a rule function; answers (rule fields, tps, fps, problems)."""
    it = Interp(body, gen, helpers, [])
    it.env = dict(env or {})
    problems = []
    rule, tps, fps = {}, None, None
    n = len(body)
    i = 0
    while i < n:
        kind, val = body[i]
        nxt = body[i + 1][1] if i + 1 < n else ""
        at_start = i == 0 or body[i - 1][0] == "nl" or body[i - 1][1] in ("{", ";", "}")
        if kind == "ident" and at_start and nxt in (":=", "="):
            it.i = i + 2
            try:
                v = it.expr()
                it.env[val] = v
                if isinstance(v, dict) and "RuleID" in v:
                    rule = v
            except Unsupported as e:
                problems.append(f"{val}: {e}")
                it.env.pop(val, None)
                it.i = i + 2
                it.skip_balanced()
            i = max(it.i, i + 1)
            continue
        if kind == "ident" and val in ("utils.Validate", "utils.ValidateWithPaths"):
            it.i = i + 1
            try:
                args, _ = it.args()
                tps, fps = args[1], args[2]
            except Unsupported as e:
                problems.append(f"validate: {e}")
            i = max(it.i, i + 1)
            continue
        if kind == "ident" and val == "return" and not rule:
            pass
        i += 1
    return rule, tps or [], fps or [], problems, it.samples


def jwt_base64_cases(it):
    """gitleaks' jwt-base64 cases are built in a loop; here the same fact (a JWT, base64-encoded
    again as a whole) is drawn from random JWTs of several header shapes."""
    out = []
    for header in ['{"alg":"HS256","typ":"JWT"}', '{"alg":"RS256","kid":"k1"}',
                   '{"typ":"JWT","alg":"ES384"}', '{"kid":"abc","alg":"PS512"}']:
        h = base64.urlsafe_b64encode(header.encode()).rstrip(b"=").decode()
        payload = base64.urlsafe_b64encode(
            ('{"sub":"%d","iat":%d}' % (it.gen.rng.randint(1, 10**9),
                                        it.gen.rng.randint(10**9, 2 * 10**9))).encode()
        ).rstrip(b"=").decode()
        sig = it.gen.sample(r"[A-Za-z0-9_-]{43}")
        jwt = f"{h}.{payload}.{sig}".encode()
        out.append(base64.b64encode(jwt).decode())
        out.append(base64.urlsafe_b64encode(jwt).decode().rstrip("="))
    return out


def gitleaks_cases(tree, gen, wanted=None):
    folder = "cmd/generate/config/rules"
    files = [p for p in tree.list(folder) if p.endswith(".go") and not p.endswith("_test.go")]
    srcs = {p: tree.read(p) for p in files}
    Interp.consts, Interp.templates = read_generator_facts(tree)
    helpers = {"generateTestValues": jwt_base64_cases}
    # Helpers of one argument that draw a value from a pattern.
    rules, problems = [], []
    env = {}
    toks_of = {path: tokenize(src) for path, src in srcs.items()}
    for path, toks in toks_of.items():
        env.update(package_vars(toks, gen, helpers))
    for path, toks in toks_of.items():
        for name, is_rule, body, _ in find_functions(toks):
            if not is_rule:
                continue
            try:
                rule, tps, fps, probs, samples = run_function(body, gen, helpers, env)
            except (Unsupported, IndexError, ValueError) as e:
                problems.append(f"{path}:{name}: {e}")
                continue
            rid = rule.get("RuleID")
            if not isinstance(rid, str):
                problems.append(f"{path}:{name}: no rule id")
                continue
            if wanted and rid not in wanted:
                continue
            for p in probs:
                problems.append(f"{rid}: {p}")
            rules.append({"id": rid, "regex": rule.get("Regex"), "group": rule.get("SecretGroup"),
                          "tps": tps, "fps": fps, "samples": samples})
    return rules, problems


def compile_rule_regex(regex):
    if not (isinstance(regex, tuple) and regex[0] == "regex"):
        return None
    p, flags = go_to_python_pattern(regex[1])
    try:
        return re.compile(p, flags | re.M)
    except re.error:
        return None


def promised_part(rule_id, secret):
    """The part of what a rule's pattern takes as the secret that this server promises to hide
    (docs/safety.md): the value without the quotes round it or the setting's name before it,
    the password of user:password (not the user), a webhook's secret path (not its host), a
    private key's key material (not its BEGIN and END lines). None when nothing in it is a
    secret's value (a JSON key and its literal, as a rule that flags a kind of file takes)."""
    s = secret.strip()
    while len(s) >= 2 and s[0] == s[-1] and s[0] in "\"'`":
        s = s[1:-1]
    s = s.strip("\"'`")
    if "-----BEGIN" in s and "\n" not in s:
        # A block on one line, its lines joined by spaces: between the markers.
        m = re.match(r"^-----BEGIN [A-Z0-9 ]+-----\s*(.+?)\s*-----END [A-Z0-9 ]+-----$", s)
        return m.group(1) if m else None
    if "-----BEGIN" in s:
        lines = s.split("\n")
        body = [l for l in lines[1:-1] if l.strip() and not l.startswith("-----") and
                not re.match(r"^[A-Za-z-]+: ", l)]
        if not body:
            return None
        first, last = s.index(body[0]), s.rindex(body[-1]) + len(body[-1])
        return s[first:last]
    # A connection string's secret is the value of its secret's key, not its endpoint or id
    # (Azure's Endpoint=…;Id=…;Secret=…, AccountKey=…, SharedAccessKey=…, Password=…).
    m = re.search(r"(?i)(?:^|;)\s*(?:secret|password|pwd|accountkey|sharedaccesskey)=([^;]+)", s)
    if m and ";" in s:
        return m.group(1)
    for marker in ("/services/", "/webhookb2/", "/workflows/", "/triggers/"):
        if marker in s:
            return s.split(marker, 1)[1]
    m = re.match(r"^[a-z][a-z0-9+.-]*://([^/@\s:]*):([^@\s]+)@", s)
    if m:
        return m.group(2)
    m = re.match(r"^[\w.-]+:[ \t]+(\S+)$", s)
    if m:
        return m.group(1).strip("\"'`")
    if re.search(r"auth-user|sensitive-url", rule_id) and ":" in s:
        user, password = s.split(":", 1)
        return password.strip("\"'{}") or None
    if '": "' in s or "\n" in s:
        return None
    return s


def secret_of(case_text, rule, compiled):
    raw = raw_secret_of(case_text, rule, compiled)
    if raw is None:
        return None
    part = promised_part(rule["id"], raw)
    return part if part and part in case_text else None


def raw_secret_of(case_text, rule, compiled):
    """The part of a true positive that is the secret: a sample value the generator was given,
    or what the rule's pattern takes as the secret (its secret group, or the first non-empty
    group, or the whole match)."""
    best = None
    for s in rule["samples"]:
        if isinstance(s, str) and s and s in case_text and (best is None or len(s) > len(best)):
            best = s
    if best:
        return best
    if compiled is None:
        return None
    m = compiled.search(case_text)
    if not m:
        return None
    g = rule.get("group")
    if isinstance(g, int) and g > 0 and g <= (compiled.groups or 0) and m.group(g):
        return m.group(g)
    for k in range(1, (compiled.groups or 0) + 1):
        if m.group(k) and len(m.group(k)) >= 6:
            return m.group(k)
    return m.group(0) or None


# ---- our own syntaxes -------------------------------------------------------------------------

def ident_of(rule_id):
    word = re.split(r"[-_]", rule_id)[0] or "service"
    return re.sub(r"[^a-z0-9]", "", word.lower()) or "service"


# (name, path, template, what the value may not hold). {i}: a name from the rule, {I}: upper
# case, {s}: the secret. The names say "token" or "key": a value given to such a setting is to be
# hidden whatever its shape; "prose" alone has no name, so only a value's own format shows it.
SYNTAXES = [
    ("env", "deploy/service.env", "{I}_TOKEN={s}\n", " \n#"),
    ("yaml", "config/settings.yaml", "service:\n  {i}_token: {s}\n", "\n#"),
    ("json", "config/settings.json", '{{\n  "{i}_token": "{s}"\n}}\n', '"\\\n'),
    ("python", "app/settings.py", '{I}_TOKEN = "{s}"\n', '"\\\n'),
    ("shell command line", "scripts/deploy.sh", "./bin/client login --{i}-token {s} --verbose\n",
     " \n'\"$`\\;&|"),
    ("xml element, own line", "config/app.xml",
     "<settings>\n  <{i}ApiKey>\n    {s}\n  </{i}ApiKey>\n</settings>\n", "<&\n"),
    ("go var", "internal/config/keys.go", 'var {i}Token string = "{s}"\n', '"\\\n'),
    ("php .=", "src/config.php", '<?php\n${i}Token .= "{s}";\n', '"\\$\n'),
    ("make ::=", "Makefile", '{I}_TOKEN ::= "{s}"\n', '"\n'),
    ("terraform", "infra/main.tf",
     'provider "{i}" {{\n  api_key = "{s}"\n}}\n', '"\\$\n'),
    ("properties", "src/main/resources/application.properties", "{i}.api.key={s}\n", "\n"),
    ("prose, no name", "docs/notes.md", "Rotated the value {s} last week.\n", "\n"),
]
FORMAT_ALONE = "prose, no name"  # only a format of its own can show such a value


def write_corpus(rules, out_path, source):
    n = 0
    stats = {"cases": 0, "no secret": [], "fps": 0}
    with open(out_path, "w", encoding="utf-8") as out:
        def put(rec):
            nonlocal n
            n += 1
            out.write(json.dumps(rec, ensure_ascii=False) + "\n")

        for rule in rules:
            rid = rule["id"]
            compiled = compile_rule_regex(rule.get("regex"))
            ident = ident_of(rid)
            seen = set()
            for k, tp in enumerate(rule["tps"]):
                case = tp if isinstance(tp, Case) else Case(tp)
                if not isinstance(case.text, str):
                    continue
                secret = secret_of(case.text, rule, compiled)
                if not secret or not secret.strip():
                    stats["no secret"].append(f"{rid}: {case.text[:80]!r}")
                    continue
                stats["cases"] += 1
                put({"id": f"{source}/{rid}/as written/{k}", "category": f"{source}:{rid}",
                     "kind": "file", "path": case.path or "notes/case.txt", "text": case.text + "\n",
                     "secrets": [{"value": secret, "what": rid}]})
                if secret in seen:
                    continue
                seen.add(secret)
                for name, path, template, banned in SYNTAXES:
                    if any(c in secret for c in banned):
                        continue
                    text = template.format(i=ident, I=ident.upper(), s=secret)
                    put({"id": f"{source}/{rid}/{name}/{k}", "category": f"{source}:{rid}",
                         "kind": "file", "path": path, "text": text,
                         "secrets": [{"value": secret, "what": rid}]})
            for k, fp in enumerate(rule["fps"]):
                case = fp if isinstance(fp, Case) else Case(fp)
                if not isinstance(case.text, str) or not case.text.strip():
                    continue
                stats["fps"] += 1
                put({"id": f"{source}/{rid}/false positive/{k}",
                     "category": f"negative:{source}:{rid}", "kind": "file",
                     "path": case.path or "notes/case.txt", "text": case.text + "\n",
                     "secrets": []})
    return n, stats


# ---- running the filter and reading its report ------------------------------------------------

def run_bench(bench, corpus, plugin_folder=None):
    args = [bench, "--quality-only", "--corpus", corpus, "--list", "-1"]
    if plugin_folder:
        args += ["--plugin-folder", plugin_folder]
    p = subprocess.run(args, capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"public_cases: {bench} failed:\n{p.stderr}")
    return p.stdout


def parse_report(text):
    misses, fps, failed = [], [], []
    section = None
    for line in text.splitlines():
        if line.startswith("### Misses"):
            section = misses
        elif line.startswith("### False positives"):
            section = fps
        elif line.startswith("### Failed"):
            section = failed
        elif line.startswith("### ") or line.startswith("## "):
            section = None
        elif section is not None and line.startswith("- `"):
            section.append([line])
        elif section is not None and line.startswith("  ") and section:
            section[-1].append(line)
    return misses, fps, failed


# Values written by hand to look like a key, which the filter's placeholder rule keeps on purpose
# (docs/safety.md, "Placeholders: the rule"): a run of eight of one character, a placeholder
# word, a counted run, or five distinct characters at most. Recall is printed also without
# them, so that what is left is what the filter misses of values that could be real.
MADE_UP_WORDS = ("fake", "example", "xxxx", "dummy", "placeholder", "redacted", "1234567890",
                 "0123456789", "abcdefghij")


# A value that is only a secret's word ("password", "MY-PASSWORD", "testpassword"), that ends
# in "here" (a blank to fill in), that an ellipsis cuts short
# ("MyPa$$w0rd...", "MIIEvAIB..."), or that holds a short unit four times over
# ("abcd1234abcd1234abcd1234abcd1234…"), is written by hand as well.
MADE_UP_ALONE = ("password", "passwd", "secret", "token", "changeme")


def is_jwt_io_example(value):
    """jwt.io's published example token: its header {"alg":"HS256","typ":"JWT"} and claims
    naming the subject "1234567890", "John Doe" (a value published for documentation, which
    the filter keeps, as the issue asks)."""
    parts = value.split(".")
    if len(parts) < 2 or not parts[0].startswith("eyJ"):
        return False
    try:
        head, claims = (base64.urlsafe_b64decode(p + "=" * (-len(p) % 4)) for p in parts[:2])
    except ValueError:
        return False
    return (head == b'{"alg":"HS256","typ":"JWT"}' and b'"sub":"1234567890"' in claims
            and b'"name":"John Doe"' in claims)


def made_up(value):
    if is_jwt_io_example(value):
        return True
    v = value.lower()
    # The word with a possessive or "test" before it: MY-PASSWORD, testpassword, your_token.
    v_word = re.sub(r"^(?:my|your|test|the|some)[-_ ]?", "", v)
    return (re.search(r"(.)\1{7}", value) is not None or any(w in v for w in MADE_UP_WORDS)
            or len(set(value)) <= 5 or v in MADE_UP_ALONE or v_word in MADE_UP_ALONE
            or "..." in v or "\u2026" in v
            # "your key here", "super secret private key here": a blank to fill in
            or re.search(r"[ _-]here$", v) is not None
            or re.search(r"(.{2,8})\1{3,}", value) is not None)


JWT = re.compile(r"(?<![A-Za-z0-9_-])(eyJ[A-Za-z0-9_-]{8,})\.[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*")


def holds_jwt(text):
    """True when the text holds a JWT of the standard's shape: three base64url parts, the
    header a JSON object with an "alg" (RFC 7515)."""
    for m in JWT.finditer(text):
        head = m.group(1)
        try:
            header = json.loads(base64.urlsafe_b64decode(head + "=" * (-len(head) % 4)))
        except (ValueError, UnicodeDecodeError):
            continue
        if isinstance(header, dict) and "alg" in header:
            return True
    return False


def pct(a, b):
    return "–" if b == 0 else f"{100.0 * a / b:.1f} %"


def summarise(corpus_path, report, list_n, label, named_value=None):
    records = [json.loads(l) for l in open(corpus_path, encoding="utf-8")]
    misses, fps, failed = parse_report(report)
    missed_ids = {m[0].split("`")[1] for m in misses}
    fp_ids = {f[0].split("`")[1] for f in fps}
    by_syntax = defaultdict(lambda: [0, 0])
    by_rule = defaultdict(lambda: [0, 0, 0, 0])  # secrets, caught, negatives, flagged
    tot = [0, 0, 0, 0]
    named = [0, 0]  # the syntaxes that give the value a name (all but FORMAT_ALONE)
    real = [0, 0]  # of those, values not made up by hand (made_up)
    for r in records:
        rule = r["category"].split(":", 1)[1] if not r["category"].startswith("negative:") else \
            r["category"].split(":", 2)[2]
        if r["secrets"]:
            syntax = r["id"].split("/")[2]
            ok = r["id"] not in missed_ids
            by_syntax[syntax][0] += 1
            by_syntax[syntax][1] += ok
            if syntax != FORMAT_ALONE:
                named[0] += 1
                named[1] += ok
                if not any(made_up(x["value"]) for x in r["secrets"]):
                    real[0] += 1
                    real[1] += ok
            by_rule[rule][0] += 1
            by_rule[rule][1] += ok
            tot[0] += 1
            tot[1] += ok
        else:
            flagged = r["id"] in fp_ids
            by_rule[rule][2] += 1
            by_rule[rule][3] += flagged
            tot[2] += 1
            tot[3] += flagged
    print(f"## {label}\n")
    print("| | measured | target |\n|---|---|---|")
    print(f"| recall, every syntax | {pct(tot[1], tot[0])} ({tot[1]} of {tot[0]}) | |")
    print(f"| recall, the value written as a setting or as the case has it (all but "
          f"\"{FORMAT_ALONE}\") | {pct(named[1], named[0])} ({named[1]} of {named[0]}) | ≥ 99 % |")
    print(f"| … of those, values not made up by hand (no run of eight of one character, "
          f"placeholder word, counted run, five distinct characters at most, a secret's word "
          f"alone or after my/your/test, an ellipsis, or a short unit four times over) | "
          f"{pct(real[1], real[0])} ({real[1]} of {real[0]}) | ≥ 99 % |")
    # A rule's false positive that is another rule's true positive (the scanner's rules for one
    # provider's two kinds of key list each other's keys) is no clear non-secret.
    # So is a JWT well formed (its header a JSON object naming its "alg"): TruffleHog's and
    # gitleaks' own JWT rules find it by that format, whatever one provider's rule or a
    # verification (expired, signed with another key) says of it.
    secrets = {x["value"] for r in records for x in r["secrets"] if len(x["value"]) >= 8}
    clear = [r for r in records if not r["secrets"] and
             not any(v in r["text"] for v in secrets) and not holds_jwt(r["text"])]
    clear_flagged = sum(1 for r in clear if r["id"] in fp_ids)
    print(f"| false positives, every case | {pct(tot[3], tot[2])} ({tot[3]} of {tot[2]}) | |")
    print(f"| false positives, cases no other rule calls a secret | "
          f"{pct(clear_flagged, len(clear))} ({clear_flagged} of {len(clear)}) | "
          f"{'' if named_value else '≤ 1 %'} |")
    if named_value is not None:
        # A value given to a setting named for a secret is hidden by the promise whatever one
        # provider's rule says; the rest are the clear non-secrets.
        plain = [r for r in clear if not named_value.search(r["text"])]
        plain_flagged = sum(1 for r in plain if r["id"] in fp_ids)
        print(f"| false positives, of those, cases that give no value to a setting named for a "
              f"secret | {pct(plain_flagged, len(plain))} ({plain_flagged} of {len(plain)}) | "
              f"≤ 1 % |")
        plain_ids = {r["id"] for r in plain}
        plain_fps = [f for f in fps if f[0].split("`")[1] in plain_ids]
    print(f"| failed scans | {len(failed)} | 0 |\n")
    print("| syntax | secrets | recall |\n|---|---:|---:|")
    for s, (a, c) in sorted(by_syntax.items(), key=lambda kv: kv[1][1] / max(1, kv[1][0])):
        print(f"| {s} | {a} | {pct(c, a)} |")
    bad = [(k, v) for k, v in by_rule.items() if v[1] < v[0] or v[3] > 0]
    print(f"\n{len(by_rule)} rules; {sum(1 for k, v in by_rule.items() if v[1] < v[0])} with a "
          f"miss, {sum(1 for k, v in by_rule.items() if v[3] > 0)} with a false positive.\n")
    print("| rule | secrets | recall | false positives |\n|---|---:|---:|---:|")
    for k, v in sorted(bad, key=lambda kv: (kv[1][1] / max(1, kv[1][0]), kv[0])):
        print(f"| {k} | {v[0]} | {pct(v[1], v[0])} | {v[3]} of {v[2]} |")

    def show(title, items):
        if not items:
            return
        print(f"\n### {title} ({len(items)})\n")
        for i, item in enumerate(items):
            if list_n >= 0 and i >= list_n:
                print(f"- … {len(items) - i} more (--list)")
                break
            print("\n".join(item))
    show("Failed scans", failed)
    show("Misses", misses)
    show("False positives", fps)
    if named_value is not None:
        show("False positives that count against the target (no other rule's secret, no value "
             "given to a setting named for a secret)", plain_fps)
    print()
    return tot


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--gitleaks", help="a checkout or bare clone of gitleaks")
    ap.add_argument("--trufflehog", help="a checkout or bare clone of TruffleHog")
    ap.add_argument("--detect-secrets", dest="detect_secrets",
                    help="a checkout or bare clone of detect-secrets")
    ap.add_argument("--bench", default=os.path.join(ROOT, "build-bench", "secrets-bench"),
                    help="secrets-bench (default: build-bench/secrets-bench, bench/secrets/run.sh "
                         "builds it)")
    ap.add_argument("--plugin-folder", help="the built-in plugin's folder (default: as the "
                    "server finds it beside secrets-bench), e.g. an older build's to compare")
    ap.add_argument("--out", default=os.path.join(HERE, "out"),
                    help="where the corpora are written (default bench/secrets/out, git-ignored)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--list", type=int, default=60, help="misses and false positives to list")
    ap.add_argument("--rule", action="append", help="only these rules (repeatable)")
    args = ap.parse_args()
    if not (args.gitleaks or args.trufflehog or args.detect_secrets):
        ap.error("give --gitleaks PATH, --trufflehog PATH or --detect-secrets PATH")
    if not os.access(args.bench, os.X_OK):
        sys.exit(f"public_cases: no {args.bench}; build it (bench/secrets/run.sh --help) or "
                 "give --bench")
    os.makedirs(args.out, exist_ok=True)
    if args.gitleaks:
        tree = Tree(args.gitleaks)
        gen = Generator(args.seed)
        rules, problems = gitleaks_cases(tree, gen, set(args.rule or []))
        corpus = os.path.join(args.out, "gitleaks.jsonl")
        n, stats = write_corpus(rules, corpus, "gitleaks")
        print(f"# The secret filter on gitleaks' rule tests\n\ngitleaks at {tree.commit()[:12]}: "
              f"{len(rules)} rules, {stats['cases']} true positives ({n - stats['fps']} records "
              f"with the syntaxes), {stats['fps']} false positives; seed {args.seed}.")
        if problems or stats["no secret"]:
            print(f"Not evaluated: {len(problems)} statements; true positives whose secret the "
                  f"rule's pattern did not find here: {len(stats['no secret'])}.")
            for p in (problems + stats["no secret"])[:40]:
                print(f"- {p}")
        print()
        import public_scanners as ps
        # Read as the other scanners' negatives are: a value given to a setting named for a
        # secret is hidden by the promise whatever gitleaks' rule for one provider says.
        summarise(corpus, run_bench(args.bench, corpus, args.plugin_folder), args.list, "gitleaks",
                  named_value=ps.NAMED_VALUE)
    for name, path in (("trufflehog", args.trufflehog), ("detect-secrets", args.detect_secrets)):
        if path:
            other_scanner(name, path, args)


def other_scanner(name, path, args):
    import public_scanners as ps
    tree = Tree(path)
    wanted = set(args.rule or [])
    if name == "trufflehog":
        rules, problems, st = ps.trufflehog_cases(tree, wanted)
        read = (f"{st['files']} test files, {st['files with a table']} with a table of cases, "
                f"{st['elements']} cases in tables of input and want ("
                f"{st.get('other tables', 0)} elements of other tests' tables left aside; "
                f"{st.get('ids', 0)} wanted values the input gives to a setting named for an "
                f"identifier — an id, user, e-mail, organisation or tenant — not counted)")
    else:
        rules, problems, st = ps.detect_secrets_cases(tree, wanted)
        read = f"{st['files']} test files, {st['tables']} tables of cases read"
        for aside in st.get("left aside", []):
            read += f"; left aside: {aside}"
    corpus = os.path.join(args.out, name + ".jsonl")
    n, stats = ps.write_corpus(rules, corpus, name)
    print(f"# The secret filter on {name}'s detector tests\n\n{name} at {tree.commit()[:12]}: "
          f"{read}; {len(rules)} detectors with cases, {stats['cases']} true positives "
          f"({n - stats['fps']} records with the syntaxes), {stats['fps']} negatives.")
    if problems:
        print(f"Not read or no secret found: {len(problems)} (listed up to --list).")
        for p in problems[:max(args.list, 0) if args.list >= 0 else None]:
            print(f"- {p}")
    print()
    summarise(corpus, run_bench(args.bench, corpus, args.plugin_folder), args.list, name,
              named_value=ps.NAMED_VALUE)


if __name__ == "__main__":
    main()
