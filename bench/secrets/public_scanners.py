"""Readers of two more public scanners' test data, for public_cases.py (--trufflehog,
--detect-secrets). As with gitleaks, their files are read at run time from a checkout or bare
clone that the caller supplies; nothing of theirs is kept in this repository.

TruffleHog: pkg/detectors/**/<name>_test.go (not the *_integration_test.go files, which call
the live services). Each pattern test holds a table `tests := []struct{name, input, want}{…}`;
a case whose `want` lists values is a true positive, one whose `want` is nil or empty a negative.
The Go is evaluated by the same small interpreter as gitleaks' rules (string literals, +,
fmt.Sprintf, strings.Repeat, the file's const and var blocks, the test function's own `x := …`).
A `want` value is what the detector reports, often two values glued (an id and its secret, a
key and its host); the runs (≥ 6 characters) of the wanted value that the input holds are
found, those that are an e-mail address, a host or URL without a password, or a run of digits
are dropped (ids and hosts, not secrets), a URL's user:password or password= parameter gives
its password (a URL with neither and no long token in its path names a place; a URL the
detector builds, its password percent-encoded, gives the password as the input writes it), and when
more than one run is left the longest is the secret (an id beside its secret is no secret).
A value the input gives to a setting named for an identifier (given_to_an_id) is no secret
either, and is counted apart.

detect-secrets: tests/plugins/*_test.py, read with Python's `ast` (never imported or run): the
`@pytest.mark.parametrize` tables of (payload or line, should_flag), of (file extension, line,
expected secret) (the keyword plugin's lists, through its parse_test_cases), and of private-key
file contents. Expressions are evaluated by a small evaluator of literals, the module's
constants, `+`, `%`, str.format, f-strings and textwrap.dedent; anything else is counted as not
read. A flagged payload's secret is the value the case names (expected_secret), else the longest
run of the payload that is neither blank, quote nor bracket, with a setting's name and its
operator taken off.

Every table this cannot read, and every case whose secret it cannot find in the input, is
counted and named in the report, never guessed.
"""

import ast
import os
import re
import urllib.parse

import public_cases as pc

# ---- TruffleHog -------------------------------------------------------------------------------


def walk(tree, folder):
    if tree.bare:
        out = tree.git("ls-tree", "-r", "--name-only", "HEAD", folder.rstrip("/") + "/")
        return sorted(out.decode().split("\n")[:-1])
    found = []
    for base, _, names in os.walk(os.path.join(tree.path, folder)):
        for n in names:
            found.append(os.path.relpath(os.path.join(base, n), tree.path))
    return sorted(found)


def _decl_starts(toks):
    """(name, index of its value) of every top-level const/var declaration with a value."""
    out = []
    depth, i, n = 0, 0, len(toks)
    while i < n:
        kind, val = toks[i]
        if kind == "op" and val in "({[":
            depth += 1
        elif kind == "op" and val in ")}]":
            depth -= 1
        elif depth == 0 and val in ("const", "var") and i + 1 < n:
            if toks[i + 1][1] == "(":
                j, d = i + 2, 1
                line_start = True
                while j < n and d > 0:
                    k, v = toks[j]
                    if k == "nl":
                        line_start = True
                        j += 1
                        continue
                    if line_start and d == 1 and k == "ident":
                        if j + 1 < n and toks[j + 1][1] == "=":
                            out.append((v, j + 2))
                        elif j + 2 < n and toks[j + 1][0] == "ident" and toks[j + 2][1] == "=":
                            out.append((v, j + 3))
                    line_start = False
                    if v in ("(", "{", "["):
                        d += 1
                    elif v in (")", "}", "]"):
                        d -= 1
                    j += 1
                i = j
                continue
            if toks[i + 1][0] == "ident":
                if i + 2 < n and toks[i + 2][1] == "=":
                    out.append((toks[i + 1][1], i + 3))
                elif i + 3 < n and toks[i + 2][0] == "ident" and toks[i + 3][1] == "=":
                    out.append((toks[i + 1][1], i + 4))
        i += 1
    return out


def _go_env(toks):
    env = {}
    pending = _decl_starts(toks)
    for _ in range(4):  # declarations may name each other in any order
        left = []
        for name, at in pending:
            it = pc.Interp(toks, None, {}, [])
            it.env = env
            it.i = at
            try:
                env[name] = it.expr()
            except (pc.Unsupported, IndexError, ValueError, TypeError, KeyError):
                left.append((name, at))
        if len(left) == len(pending):
            break
        pending = left
    return env


def _skip_block(toks, i):
    """toks[i] is '{': the index after its matching '}'."""
    d = 0
    while i < len(toks):
        v = toks[i][1]
        if toks[i][0] == "op" and v == "{":
            d += 1
        elif toks[i][0] == "op" and v == "}":
            d -= 1
            if d == 0:
                return i + 1
        i += 1
    return i


def _tables(body, env):
    """Yields (element dict or a reason it was not read) for each table of cases in a test."""
    it = pc.Interp(body, None, {}, [])
    it.env = dict(env)
    n = len(body)
    i = 0
    while i < n:
        kind, val = body[i]
        at_start = i == 0 or body[i - 1][0] == "nl" or body[i - 1][1] in ("{", ";", "}")
        if (val == "[" and i + 2 < n and body[i + 1][1] == "]" and body[i + 2][1] == "struct"
                and i + 3 < n and body[i + 3][1] == "{"):
            j = _skip_block(body, i + 3)  # the fields
            while j < n and body[j][0] == "nl":
                j += 1
            if j >= n or body[j][1] != "{":
                i = j
                continue
            end = _skip_block(body, j)
            k = j + 1
            while k < end - 1:
                if body[k][0] == "nl" or body[k][1] == ",":
                    k += 1
                    continue
                if body[k][1] != "{":
                    yield "an element that is not a {…} literal"
                    k = _next_element(body, k, end)
                    continue
                elem_end = _skip_block(body, k)
                first = k + 1
                while first < elem_end and body[first][0] == "nl":
                    first += 1
                if not (body[first][0] == "ident" and body[first + 1][1] == ":"):
                    yield "an element written without field names"
                else:
                    it.i = k
                    try:
                        yield it.composite_struct()
                    except (pc.Unsupported, IndexError, ValueError, TypeError):
                        yield "an element the interpreter could not read"
                k = elem_end
            i = end
            continue
        if kind == "ident" and at_start and i + 1 < n and body[i + 1][1] in (":=", "="):
            it.i = i + 2
            try:
                it.env[val] = it.expr()
            except (pc.Unsupported, IndexError, ValueError, TypeError, KeyError):
                it.env.pop(val, None)
            i += 2
            continue
        i += 1


def _next_element(body, k, end):
    d = 0
    while k < end - 1:
        v = body[k][1]
        if v in "({[":
            d += 1
        elif v in ")}]":
            d -= 1
        elif v == "," and d == 0:
            return k + 1
        k += 1
    return k


IDENTISH = re.compile(r"^(?:[\w.+-]+@[\w-]+(?:\.[\w-]+)+|(?:https?://)?[\w-]+(?:\.[\w-]+)+(?::\d+)?/?"
                      r"|https?://[^\s:@]+|\d+|localhost(?::\d+)?)$")


def _clean(run, text):
    """A run of a wanted value as the promise names it: without the quotes, brackets or a
    setting's name round it; a URL's password. None when it is an id or a host."""
    s = run.strip(" \t\r\n:;|,")
    # A JSON key glued before its value ('auth":"dXNlcjpw…'): the value.
    m = re.match(r'^[\w.-]+"\s*:\s*"?(.+)$', s)
    if m and m.group(1) in text:
        s = m.group(1)
    s = re.sub(r"^[\"'`{(\[]+|[\"'`})\]]+$", "", s)
    if (s.startswith("jdbc:") and "//" not in s and not re.search(r"password=", s, re.I)
            and not re.search(r"[^:@]@", s)):
        return None  # jdbc:sqlite:/data/x.db, jdbc:oracle:thin:@host:1521:db: a place (not
        #              jdbc:oracle:thin:scott/tiger@host, which holds a password)
    url = re.sub(r"^jdbc:", "", s)
    if re.match(r"^[a-z][a-z0-9+.-]*://", url) and not re.match(r"^[a-z][a-z0-9+.-]*://[^/@\s]*@",
                                                                url):
        # A URL with no user:password: its password parameter, else a secret path (a webhook's),
        # else it names a place, no secret.
        m = re.search(r"[;?&]password=([^;&\s]+)", url, re.I)
        if m:
            return m.group(1) if len(m.group(1)) >= 6 and m.group(1) in text else None
        if not re.search(r"/[A-Za-z0-9_-]{20,}", url):
            return None
    part = pc.promised_part("", url) if s else None
    if part and part in text:
        s = part
    s = s.strip(" \t:;|,/@")
    if len(s) < 6 or IDENTISH.match(s) or s not in text:
        return None
    return s


# The last word of a setting's name that makes its value an identifier, not a secret: the
# input itself says what the value is ("hive_id": "…", CLIENT_ID=…, <username>{…}</username>),
# unless another word of the name names a secret (Vault's secret_id is a credential).
ID_WORDS = {"id", "ids", "user", "username", "usr", "email", "org", "organization", "tenant"}
SECRET_WORDS = {"secret", "key", "token", "pass", "password", "passwd", "pwd", "auth",
                "credential", "credentials"}
_NAME_BEFORE = re.compile(r"([A-Za-z_][\w.-]*)[\"']?[ \t]*(?::=|=>|=|:|\|)[ \t]*[\"'`{(\[]?[ \t]*$")
_ELEMENT_BEFORE = re.compile(r"<([A-Za-z_][\w.-]*)>[ \t]*\{?(?:[\w-]+ ){0,2}$")


def _names_an_id(name):
    words = [w.lower() for w in re.findall(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|\d+", name)]
    return bool(words) and words[-1] in ID_WORDS and not SECRET_WORDS.intersection(words)


def given_to_an_id(secret, text):
    """True when every occurrence of the value in the input is given to a setting whose name
    says it is an identifier (an id, a user, an e-mail, an organisation, a tenant, an account):
    no secret by the promise, whatever a detector reports beside its secret."""
    at = text.find(secret)
    if at < 0:
        return False
    while at >= 0:
        before = text[max(0, at - 80):at]
        m = _NAME_BEFORE.search(before) or _ELEMENT_BEFORE.search(before)
        if not m or not _names_an_id(m.group(1)):
            return False
        at = text.find(secret, at + 1)
    return True


def secrets_in(want, text):
    """The secrets of one wanted value that the input holds (see the module's comment)."""
    # A URL the detector builds from what it parsed (TruffleHog's SQL Server:
    # sqlserver://sa:P%40ssw0rd%21@host?database=…): its password, decoded, is the secret when
    # the input holds it so.
    url = re.match(r"^[a-z][a-z0-9+.-]*://[^/@\s:]*:([^@\s]+)@", want)
    password = urllib.parse.unquote(url.group(1)) if url else None
    if want in text:
        runs = [want]
    elif password and len(password) >= 6 and password in text:
        runs = [password]
    else:
        runs, p = [], 0
        while p < len(want):
            lo = 0
            for size in range(len(want) - p, 5, -1):
                if want[p:p + size] in text:
                    lo = size
                    break
            if lo:
                runs.append(want[p:p + lo])
                p += lo
            else:
                p += 1
    out = []
    for r in runs:
        s = _clean(r, text)
        if s and s not in out:
            out.append(s)
    if len(out) > 1:  # an id glued to its secret: the secret is the longest (the id is shown)
        top = max(len(s) for s in out)
        out = [s for s in out if len(s) == top]
    return out


def trufflehog_cases(tree, wanted=None):
    """Rules in public_cases' shape: {"id", "tps": [(text, [secrets])], "fps": [text]}, and the
    problems met."""
    files = [p for p in walk(tree, "pkg/detectors") if p.endswith("_test.go") and
             not p.endswith("_integration_test.go")]
    rules, problems = {}, []
    stats = {"files": len(files), "files with a table": 0, "elements": 0}
    for path in files:
        rel = path[len("pkg/detectors/"):]
        rid = os.path.dirname(rel).replace("/", ".") or os.path.basename(rel)[:-len("_test.go")]
        if wanted and rid not in wanted:
            continue
        toks = pc.tokenize(tree.read(path))
        env = _go_env(toks)
        had = False
        for name, _, body, _ in pc.find_functions(toks):
            if not name.startswith("Test"):
                continue
            for el in _tables(body, env):
                stats["elements"] += 1
                if isinstance(el, str):
                    problems.append(f"{rel}:{name}: {el}")
                    continue
                text = el.get("input", el.get("data"))
                if "want" not in el or text is None:
                    stats["elements"] -= 1
                    stats["other tables"] = stats.get("other tables", 0) + 1
                    continue
                had = True
                want = el["want"]
                label = el.get("name") if isinstance(el.get("name"), str) else "?"
                if text is pc.Unsupported or want is pc.Unsupported:
                    problems.append(f"{rel}:{name}: case {label!r} not evaluated")
                    continue
                if not isinstance(text, str):
                    problems.append(f"{rel}:{name}: case {label!r}: input is not text")
                    continue
                r = rules.setdefault(rid, {"id": rid, "tps": [], "fps": []})
                if not want:
                    r["fps"].append(text)
                    continue
                if not isinstance(want, list) or not all(isinstance(w, str) for w in want):
                    problems.append(f"{rel}:{name}: case {label!r}: want is not a list of text")
                    continue
                secrets = []
                # The provider's own name, where a want glues it to a token ("…https://gitlab"),
                # is no secret.
                names = set(re.split(r"[._/]", rid.lower()))
                for w in want:
                    for s in secrets_in(w, text):
                        if s in secrets or s.lower() in names:
                            continue
                        if given_to_an_id(s, text):
                            stats["ids"] = stats.get("ids", 0) + 1
                            continue
                        secrets.append(s)
                if not secrets:
                    problems.append(f"{rel}:{name}: case {label!r}: no wanted value in the input")
                    continue
                r["tps"].append((text, secrets))
        stats["files with a table"] += had
    return sorted(rules.values(), key=lambda r: r["id"]), problems, stats


# ---- detect-secrets ---------------------------------------------------------------------------


class NotRead(Exception):
    pass


class PyEval:
    """Literals, names of the module's constants, +, %, str.format, f-strings, dedent."""

    def __init__(self, consts):
        self.consts = consts
        self.dropped = []  # the elements of lists left out, each with its reason

    def ev(self, node):
        if isinstance(node, ast.Constant):
            return node.value
        if isinstance(node, (ast.Tuple, ast.List)):
            out = []
            for e in node.elts:
                try:
                    if isinstance(e, ast.Starred):
                        out.extend(self.ev(e.value))
                    else:
                        out.append(self.ev(e))
                except NotRead as why:
                    if isinstance(node, ast.Tuple):
                        raise
                    self.dropped.append(f"line {e.lineno}: an element not read ({why})")
            return tuple(out) if isinstance(node, ast.Tuple) else out
        if isinstance(node, ast.Name):
            if node.id in self.consts:
                return self.consts[node.id]
            raise NotRead(f"name {node.id}")
        if isinstance(node, ast.BinOp):
            a, b = self.ev(node.left), self.ev(node.right)
            if isinstance(node.op, ast.Add):
                return a + b
            if isinstance(node.op, ast.Mod) and isinstance(a, str):
                return a % b
            if isinstance(node.op, ast.Mult):
                return a * b
            raise NotRead("operator")
        if isinstance(node, ast.Subscript):
            v = self.ev(node.value)
            s = node.slice
            if isinstance(s, ast.Slice):
                lo = self.ev(s.lower) if s.lower else None
                hi = self.ev(s.upper) if s.upper else None
                return v[lo:hi]
            return v[self.ev(s)]
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            return -self.ev(node.operand)
        if isinstance(node, ast.JoinedStr):
            out = []
            for v in node.values:
                if isinstance(v, ast.Constant):
                    out.append(v.value)
                else:
                    out.append(str(self.ev(v.value)))
            return "".join(out)
        if isinstance(node, ast.Call):
            f = node.func
            args = [self.ev(a) for a in node.args]
            kwargs = {k.arg: self.ev(k.value) for k in node.keywords if k.arg}
            if isinstance(f, ast.Attribute):
                if isinstance(f.value, ast.Name) and f.value.id == "textwrap" and \
                        f.attr == "dedent":
                    import textwrap
                    return textwrap.dedent(*args)
                base = self.ev(f.value)
                if isinstance(base, str) and f.attr in ("format", "upper", "lower", "strip",
                                                        "join", "replace", "encode"):
                    return getattr(base, f.attr)(*args, **kwargs)
                if isinstance(base, bytes) and f.attr == "decode":
                    return base.decode(*args)
            if isinstance(f, ast.Name) and f.id == "parse_test_cases":
                # the keyword plugin's helper: (extension, cases) → (extension, line, secret)
                return [(ext, line, secret) for ext, cases in args[0] for line, secret in cases]
            raise NotRead("a call")
        raise NotRead(type(node).__name__)


# detect-secrets' plugins that flag what the promise does not call a secret.
NOT_SECRETS = {"ip_public": "a public IP address is no secret (docs/safety.md)"}

TEXT_FIELDS = ("payload", "line", "file_content", "content", "token", "secret")
FLAG_FIELDS = ("should_flag", "expected_secret")

EXT_PATH = {None: "notes/case.txt", "conf": "etc/app.conf", "go": "internal/config.go",
            "m": "src/config.m", "c": "src/config.c", "cs": "src/Config.cs",
            "cls": "src/Config.cls", "java": "src/Config.java", "py": "app/config.py",
            "pyi": "app/config.pyi", "js": "src/config.js", "swift": "src/Config.swift",
            "tf": "infra/main.tf", "cpp": "src/config.cpp"}


def flagged_secret(payload):
    """The secret of a flagged payload (see the module's comment)."""
    if "://" in payload or "-----BEGIN" in payload:
        part = pc.promised_part("", payload.strip())
        if part and part != payload.strip() and part in payload:
            return part
    runs = re.findall(r"[^\s\"'`,;()<>{}\[\]]+", payload)
    # A run that ends in ':' with another after it is a label or a header's name
    # ("X-JFrog-Art-Api: AKC…"), not the value.
    runs = [r for i, r in enumerate(runs) if not (r.endswith(":") and i + 1 < len(runs))]
    best = None
    for r in runs:
        if not r.startswith("http"):
            for _ in range(3):  # name=value, --flag=value, //host/:_authToken=value
                m = re.match(r"^[-/]*[A-Za-z_][\w./-]*(?:=>|:=|=|:)(?!=)(.+)$", r)
                if not m or len(m.group(1)) < 6:
                    break
                r = m.group(1)
        r = r.lstrip("=:")
        if best is None or len(r) > len(best):
            best = r
    return best


def detect_secrets_cases(tree, wanted=None):
    files = [p for p in tree.list("tests/plugins") if p.endswith("_test.py")]
    rules, problems = [], []
    stats = {"files": len(files), "tables": 0}
    for path in files:
        rid = os.path.basename(path)[:-len("_test.py")]
        if wanted and rid not in wanted:
            continue
        try:
            mod = ast.parse(tree.read(path))
        except SyntaxError as e:
            problems.append(f"{path}: {e}")
            continue
        consts = {}
        ev = PyEval(consts)
        for node in mod.body:
            if isinstance(node, ast.Assign) and len(node.targets) == 1 and \
                    isinstance(node.targets[0], ast.Name):
                try:
                    consts[node.targets[0].id] = ev.ev(node.value)
                except (NotRead, Exception):
                    pass
        rule = {"id": rid, "tps": [], "fps": []}
        for node in ast.walk(mod):
            if not isinstance(node, ast.Call):
                continue
            f = node.func
            if not (isinstance(f, ast.Attribute) and f.attr == "parametrize" and
                    len(node.args) >= 2):
                continue
            try:
                names = [n.strip() for n in ev.ev(node.args[0]).split(",")]
            except (NotRead, AttributeError):
                problems.append(f"{path}:{node.lineno}: a table whose names are not read")
                continue
            text_field = next((n for n in names if n in TEXT_FIELDS), None)
            flag = next((n for n in names if n in FLAG_FIELDS), None)
            if text_field is None or (flag is None and text_field != "file_content"):
                problems.append(f"{path}:{node.lineno}: a table of ({', '.join(names)}), not "
                                "of cases with a verdict")
                continue
            try:
                rows = ev.ev(node.args[1])
            except (NotRead, Exception) as e:
                problems.append(f"{path}:{node.lineno}: the table is not read ({e})")
                continue
            stats["tables"] += 1
            for row in rows:
                if len(names) == 1:
                    row = (row,)
                d = dict(zip(names, row))
                text = d.get(text_field)
                if isinstance(text, bytes):
                    text = text.decode("utf-8", "replace")
                if not isinstance(text, str):
                    problems.append(f"{path}:{node.lineno}: a row whose text is not read")
                    continue
                where = EXT_PATH.get(d.get("file_extension"), "notes/case.txt")
                verdict = d.get(flag) if flag else True
                if flag == "expected_secret":
                    if verdict is None:
                        rule["fps"].append((text, where))
                    elif verdict in text:
                        rule["tps"].append((text, [verdict], where))
                    else:
                        problems.append(f"{path}:{node.lineno}: expected secret not in the line")
                    continue
                if not verdict:
                    rule["fps"].append((text, where))
                    continue
                if text_field == "file_content":
                    part = pc.promised_part("", text)
                    secret = part if part else None
                else:
                    secret = flagged_secret(text)
                if not secret or secret not in text:
                    problems.append(f"{path}:{node.lineno}: no secret found in {text[:60]!r}")
                    continue
                rule["tps"].append((text, [secret], where))
        problems.extend(f"{path}: {d}" for d in ev.dropped)
        if rid in NOT_SECRETS:
            stats.setdefault("left aside", []).append(
                f"{rid} ({len(rule['tps'])} flagged, {len(rule['fps'])} not): {NOT_SECRETS[rid]}")
            continue
        if rule["tps"] or rule["fps"]:
            rules.append(rule)
    return rules, problems, stats


# ---- writing a corpus -------------------------------------------------------------------------


def write_corpus(rules, out_path, source):
    """Each true positive as written (every secret of it) and each distinct secret again in
    public_cases' syntaxes; each negative as written."""
    import json
    n = 0
    stats = {"cases": 0, "fps": 0}
    with open(out_path, "w", encoding="utf-8") as out:
        for rule in rules:
            rid = rule["id"]
            ident = pc.ident_of(rid.split(".")[0])
            seen = set()
            for k, tp in enumerate(rule["tps"]):
                text, secrets = tp[0], tp[1]
                path = tp[2] if len(tp) > 2 else "notes/case.txt"
                stats["cases"] += 1
                n += 1
                out.write(json.dumps({
                    "id": f"{source}/{rid}/as written/{k}", "category": f"{source}:{rid}",
                    "kind": "file", "path": path, "text": text + "\n",
                    "secrets": [{"value": s, "what": rid} for s in secrets]},
                    ensure_ascii=False) + "\n")
                for j, s in enumerate(secrets):
                    if s in seen:
                        continue
                    seen.add(s)
                    # One record a secret: a case's second secret is k.1 (a shared id would count
                    # each of them missed when one is).
                    case = f"{k}" if j == 0 else f"{k}.{j}"
                    for name, spath, template, banned in pc.SYNTAXES:
                        if any(c in s for c in banned):
                            continue
                        n += 1
                        out.write(json.dumps({
                            "id": f"{source}/{rid}/{name}/{case}", "category": f"{source}:{rid}",
                            "kind": "file", "path": spath,
                            "text": template.format(i=ident, I=ident.upper(), s=s),
                            "secrets": [{"value": s, "what": rid}]}, ensure_ascii=False) + "\n")
            for k, fp in enumerate(rule["fps"]):
                text, path = (fp, "notes/case.txt") if isinstance(fp, str) else fp
                if not text.strip():
                    continue
                stats["fps"] += 1
                n += 1
                out.write(json.dumps({
                    "id": f"{source}/{rid}/false positive/{k}",
                    "category": f"negative:{source}:{rid}", "kind": "file", "path": path,
                    "text": text + "\n", "secrets": []}, ensure_ascii=False) + "\n")
    return n, stats


# A value given to a setting named for a secret, which the promise (docs/safety.md) hides
# whatever a scanner's rule for one provider says: such a negative is no clear non-secret.
# A key that no word qualifies (`KEY=`, `adobe Key=`, `bitfinexKey :=`) is one when its value has
# a token's shape: 20 or more characters of a token's alphabet, digits and letters mixed
# (plugins/secrets/assignments.cc, kBareKey). The name may also be given apart from its value
# as a pair: .NET's and NuGet's `<add key="ClearTextPassword" value="…"/>`, and a call's two
# strings `("X-Api-Key", "…")` (a header set, a map filled).
NAMED_VALUE = re.compile(
    r"(?i)(?:(?:pass(?:word|wd|phrase)?|pwd|secret|token|api[_.-]?key|apikey|app[_.-]?key|"
    r"access[_.-]?key|"
    r"private[_.-]?key|credential|auth)[\w.-]*[\"'\]]*\s*(?:=>|:=|::=|\+=|=|:|\s-\s)\s*"
    r"[\"'`{(]?[^\s\"'`<>]{3,}"
    r"|\bkey\s*=\s*[\"'][\w.-]*(?:pass(?:word|wd|phrase)|secret|token|api[_.-]?key|apikey)[\"']"
    r"\s+value\s*=\s*[\"'][^\"']{3,}"
    r"|[(,]\s*[\"'][\w.-]*(?:pass(?:word|wd|phrase)|secret|token|api[_.-]?key|apikey)[\"']"
    r"\s*,\s*[\"'][^\s\"'<>]{3,}"
    r"|key[\"'\]]*\s*(?:=>|:=|::=|\+=|=|:)\s*[\"'`]?"
    r"(?=[A-Za-z0-9+/=_.-]{20,})(?=[^\s\"'`]*[0-9])(?=[^\s\"'`]*[A-Za-z]))")
