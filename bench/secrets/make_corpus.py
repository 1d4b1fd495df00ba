#!/usr/bin/env python3
"""The labelled corpus for the secret filter's quality bench (bench/secrets/secrets_bench).

Writes JSON Lines, one record per line:

  {"id": "github-token-0007", "category": "github-token", "kind": "file",
   "path": "config/app.yml", "text": "...",
   "secrets": [{"value": "ghp_...", "what": "GitHub token"}]}

id        unique, stable for a given --seed and counts.
category  what the record exercises: a provider's keys ("github-token", "aws", "azure", ...),
          a family of secrets without a provider ("url-password", "private-key-pem",
          "setting-yaml", "prose-password", ...), or, for a record that holds no secret at
          all, "negative:<what it holds instead>" ("negative:uuid", "negative:placeholder").
kind      the kind of text the filter is told it scans: "file" (lines of the file named by
          path), "diff" (a unified diff of that file) or "commit_message" (path is "").
path      the file the text comes from, from the repository's root; "" for messages.
text      a few lines of a realistic file, diff or message around the value(s).
secrets   every secret in the text, with a short description of it. Each value occurs
          verbatim in the text, exactly as written there: inside a JSON string with its
          escapes, inside a YAML block with its indentation, inside a diff with the "+"/"-"
          that begin the lines of a private key's block. A private key's value is its key
          material, the lines between BEGIN and END (the marker lines hold nothing secret; a
          filter may hide them too). Negative records have [].

How the bench scores a filter against it:
  - A secret is CAUGHT when the spans the filter reports cover every byte of every
    occurrence of its value in the text. A span may cover more (the quotes, the whole
    URL, the setting's name): only the value's bytes are checked.
    Recall = caught secrets / all secrets, overall and per category.
  - A negative record is a FALSE POSITIVE when the filter reports any span at all in it.
    False-positive rate = negative records with a span / negative records.
  - Spans in a positive record outside its secrets count neither way, and "what" is
    for people reading the report: it is not compared with the detector's description.

Every value is generated from the provider's published format (prefix, length, alphabet
and, where one is documented, the checksum: GitHub's and npm's tokens end in the CRC32 of
their random part written in base62); none is a real credential. The negatives are the
look-alikes a repository is full of (commit ids, hashes, UUIDs, integrity strings, public
keys, placeholders, references, identifiers, numbers, ids in code, versions). Cases a
careful reader could call either way (a weak password that is also a plain word; a
random-looking value merely named as a test fixture; a certificate's body without its
header) are on neither side.

Python 3's standard library only; the output depends only on the arguments.

  make_corpus.py [--seed N] [--out PATH] [--per-category N] [--negatives-per-category N]
"""

import argparse
import base64
import json
import os
import random
import string
import struct
import sys
import zlib

DIGITS = string.digits
UPPER = string.ascii_uppercase
LOWER = string.ascii_lowercase
ALNUM = string.ascii_letters + string.digits
B62 = string.digits + string.ascii_uppercase + string.ascii_lowercase  # base62 digit order
HEX = "0123456789abcdef"
B64URL = ALNUM + "-_"
B32 = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
BECH32 = "QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L"


class Gen:
    """Deterministic random helpers."""

    def __init__(self, seed):
        self.r = random.Random(seed)
        self.n = 0  # how many records of the category were asked for so far

    def cycle(self, seq):
        """The next of `seq` in turn, so that every one appears in a category's records."""
        return seq[self.n % len(seq)]

    def pick(self, seq):
        return self.r.choice(seq)

    def chance(self, p):
        return self.r.random() < p

    def int(self, a, b):
        return self.r.randint(a, b)

    def s(self, alphabet, n):
        return "".join(self.r.choice(alphabet) for _ in range(n))

    def mixed(self, alphabet, n):
        """A random string that has a digit, an upper- and a lower-case letter where the
        alphabet has them (a random 20-character string almost always does)."""
        while True:
            v = self.s(alphabet, n)
            if n < 8:
                return v
            kinds = [set(DIGITS), set(UPPER), set(LOWER)]
            if all(not (k & set(alphabet)) or (k & set(v)) for k in kinds):
                return v

    def hex(self, n):
        return self.s(HEX, n)

    def bytes(self, n):
        return bytes(self.r.getrandbits(8) for _ in range(n))

    def b64(self, nbytes):
        return base64.b64encode(self.bytes(nbytes)).decode()

    def b64url(self, nbytes):
        return base64.urlsafe_b64encode(self.bytes(nbytes)).decode().rstrip("=")

    def uuid(self):
        h = self.hex(32)
        h = h[:12] + "4" + h[13:16] + self.pick("89ab") + h[17:]
        return "%s-%s-%s-%s-%s" % (h[:8], h[8:12], h[12:16], h[16:20], h[20:])

    def shuffle(self, seq):
        self.r.shuffle(seq)
        return seq

    def sample(self, seq, k):
        return self.r.sample(seq, min(k, len(seq)))


def base62(n, width):
    out = ""
    while n:
        n, d = divmod(n, 62)
        out = B62[d] + out
    return out.rjust(width, "0")


def crc_token(g, prefix, body_len=30):
    """GitHub's (and npm's) token layout: prefix, 30 random base62 characters, then the
    CRC32 of those 30 characters in base62, padded to 6."""
    body = g.mixed(B62, body_len)
    return prefix + body + base62(zlib.crc32(body.encode()) & 0xFFFFFFFF, 6)


# ---------------------------------------------------------------------------------------
# Key material: DER-shaped bytes (the real structure's first bytes, then random ones), so
# the base64 begins as a real key's does. None of these is a usable key.


def der(prefix_hex, total, g):
    head = bytes.fromhex(prefix_hex.replace(" ", ""))
    return head + g.bytes(max(0, total - len(head)))


def wrap(b64, width=64):
    return [b64[i : i + width] for i in range(0, len(b64), width)]


def ssh_string(b):
    return struct.pack(">I", len(b)) + b


def openssh_private_blob(g):
    pub = ssh_string(b"ssh-ed25519") + ssh_string(g.bytes(32))
    check = g.bytes(4)
    priv = (
        check
        + check
        + ssh_string(b"ssh-ed25519")
        + ssh_string(g.bytes(32))
        + ssh_string(g.bytes(64))
        + ssh_string(b"deploy@ci")
        + b"\x01\x02\x03\x04\x05"
    )
    return (
        b"openssh-key-v1\x00"
        + ssh_string(b"none")
        + ssh_string(b"none")
        + ssh_string(b"")
        + struct.pack(">I", 1)
        + ssh_string(pub)
        + ssh_string(priv)
    )


def private_key_lines(g, label=None):
    """A private key's PEM block as a list of lines (BEGIN ... END)."""
    label = label or g.pick(
        [
            "RSA PRIVATE KEY",
            "RSA PRIVATE KEY",
            "PRIVATE KEY",
            "PRIVATE KEY",
            "EC PRIVATE KEY",
            "OPENSSH PRIVATE KEY",
            "OPENSSH PRIVATE KEY",
            "DSA PRIVATE KEY",
            "ENCRYPTED PRIVATE KEY",
            "PGP PRIVATE KEY BLOCK",
            "PRIVATE KEY ed25519",
        ]
    )
    headers = []
    width = 64
    if label == "RSA PRIVATE KEY":
        body = der("308204a40201000282010100", 0x4A8, g)
        if g.chance(0.2):
            headers = ["Proc-Type: 4,ENCRYPTED", "DEK-Info: AES-128-CBC," + g.hex(32).upper(), ""]
    elif label == "PRIVATE KEY":
        body = der("308204be020100300d06092a864886f70d0101010500048204a8", 0x4C2, g)
    elif label == "PRIVATE KEY ed25519":
        label = "PRIVATE KEY"
        body = der("302e020100300506032b657004220420", 48, g)
    elif label == "EC PRIVATE KEY":
        body = (
            bytes.fromhex("30770201010420")
            + g.bytes(32)
            + bytes.fromhex("a00a06082a8648ce3d030107a14403420004")
            + g.bytes(64)
        )
    elif label == "OPENSSH PRIVATE KEY":
        body = openssh_private_blob(g)
        width = 70
    elif label == "DSA PRIVATE KEY":
        body = der("308201bb02010002818100", 0x1BF, g)
    elif label == "ENCRYPTED PRIVATE KEY":
        body = der("3082050930530609 2a864886f70d01050d3046302506092a864886f70d01050c", 0x50D, g)
    else:  # PGP
        body = der("9503c604", 900, g)
        headers = [
            "",
        ]
        b64 = base64.b64encode(body).decode()
        crc = base64.b64encode(g.bytes(3)).decode()
        return (
            ["-----BEGIN PGP PRIVATE KEY BLOCK-----"]
            + headers
            + wrap(b64, 64)
            + ["=" + crc, "-----END PGP PRIVATE KEY BLOCK-----"]
        )
    b64 = base64.b64encode(body).decode()
    return (
        ["-----BEGIN %s-----" % label] + headers + wrap(b64, width) + ["-----END %s-----" % label]
    )


def key_body(key):
    """The indexes [first, last] of a PEM block's key material: the lines after BEGIN and its
    headers (Proc-Type:, DEK-Info:, the blank line) up to the line before END."""
    first = 1
    while first < len(key) - 1 and (not key[first] or ":" in key[first]):
        first += 1
    return first, len(key) - 2


def public_pem_lines(g):
    kind = g.pick(
        [
            "PUBLIC KEY",
            "PUBLIC KEY ec",
            "RSA PUBLIC KEY",
            "CERTIFICATE",
            "CERTIFICATE",
            "CERTIFICATE REQUEST",
            "PGP PUBLIC KEY BLOCK",
        ]
    )
    if kind == "PUBLIC KEY":
        body = (
            bytes.fromhex("30820122300d06092a864886f70d01010105000382010f003082010a0282010100")
            + g.bytes(256)
            + bytes.fromhex("0203010001")
        )
    elif kind == "PUBLIC KEY ec":
        kind = "PUBLIC KEY"
        body = bytes.fromhex("3059301306072a8648ce3d020106082a8648ce3d03010703420004") + g.bytes(64)
    elif kind == "RSA PUBLIC KEY":
        body = bytes.fromhex("3082010a0282010100") + g.bytes(256) + bytes.fromhex("0203010001")
    elif kind == "CERTIFICATE":
        body = (
            bytes.fromhex("3082036b30820253a00302010202 14".replace(" ", ""))
            + g.bytes(20)
            + bytes.fromhex("300d06092a864886f70d01010b05003045310b3009060355040613024155")
            + g.bytes(0x36F - 64)
        )
    elif kind == "CERTIFICATE REQUEST":
        body = der("3082028a30820172020100304531", 0x28E, g)
    else:
        body = der("99010d04", 700, g)
        b64 = base64.b64encode(body).decode()
        return (
            ["-----BEGIN PGP PUBLIC KEY BLOCK-----", ""]
            + wrap(b64)
            + ["=" + base64.b64encode(g.bytes(3)).decode(), "-----END PGP PUBLIC KEY BLOCK-----"]
        )
    b64 = base64.b64encode(body).decode()
    return ["-----BEGIN %s-----" % kind] + wrap(b64) + ["-----END %s-----" % kind]


def cert_pem_text(g):
    body = (
        bytes.fromhex("3082036b30820253a0030201020214")
        + g.bytes(20)
        + bytes.fromhex("300d06092a864886f70d01010b05003045310b3009060355040613024155")
        + g.bytes(0x36F - 64)
    )
    return "\n".join(
        ["-----BEGIN CERTIFICATE-----"]
        + wrap(base64.b64encode(body).decode())
        + ["-----END CERTIFICATE-----", ""]
    )


def ssh_public_key(g, comment=True):
    kind = g.pick(["ssh-rsa", "ssh-ed25519", "ssh-ed25519", "ecdsa-sha2-nistp256"])
    if kind == "ssh-rsa":
        blob = (
            ssh_string(b"ssh-rsa")
            + ssh_string(b"\x01\x00\x01")
            + ssh_string(b"\x00" + g.bytes(256))
        )
    elif kind == "ssh-ed25519":
        blob = ssh_string(b"ssh-ed25519") + ssh_string(g.bytes(32))
    else:
        blob = (
            ssh_string(b"ecdsa-sha2-nistp256")
            + ssh_string(b"nistp256")
            + ssh_string(b"\x04" + g.bytes(64))
        )
    key = kind + " " + base64.b64encode(blob).decode()
    if comment:
        key += " " + g.pick(
            [
                "deploy@ci",
                "alice@laptop",
                "bob@build-01",
                "jenkins@acme.io",
                "github-actions",
                "ops-team",
            ]
        )
    return key


# ---------------------------------------------------------------------------------------
# Names of settings, in each language's usual spelling.


def name_as(words, style):
    if style == "UPPER":
        return "_".join(w.upper() for w in words)
    if style == "snake":
        return "_".join(w.lower() for w in words)
    if style == "camel":
        return words[0].lower() + "".join(w.capitalize() for w in words[1:])
    if style == "pascal":
        return "".join(w.capitalize() for w in words)
    if style == "kebab":
        return "-".join(w.lower() for w in words)
    if style == "dot":
        return ".".join(w.lower() for w in words)
    if style == "flat":
        return "".join(w.lower() for w in words)
    raise ValueError(style)


STYLE_FOR = {
    "env": ["UPPER"],
    "shell": ["UPPER"],
    "dockerfile": ["UPPER"],
    "ghactions": ["UPPER"],
    "k8s": ["UPPER"],
    "compose": ["UPPER"],
    "markdown": ["UPPER"],
    "gitlabci": ["UPPER"],
    "yaml": ["snake", "snake", "camel"],
    "helm": ["camel", "snake"],
    "json": ["camel", "snake"],
    "toml": ["snake"],
    "ini": ["snake", "snake", "flat"],
    "xml": ["pascal", "camel"],
    "properties": ["dot", "kebab"],
    "python": ["snake", "UPPER"],
    "js": ["camel", "UPPER"],
    "go": ["camel", "pascal"],
    "java": ["camel", "UPPER"],
    "ruby": ["snake"],
    "php": ["snake", "UPPER"],
    "csharp": ["pascal"],
    "rust": ["snake", "UPPER"],
    "terraform": ["snake"],
}

QUOTES = {
    "env": ["", "", '"', "'"],
    "shell": ['"', "'", ""],
    "dockerfile": ["", '"'],
    "ghactions": ["", "'", '"'],
    "k8s": ['"', "", "'"],
    "compose": ["", '"'],
    "markdown": ["", '"'],
    "gitlabci": ["", '"'],
    "yaml": ["", '"', "'"],
    "helm": ['"', ""],
    "json": ['"'],
    "toml": ['"', "'"],
    "ini": [""],
    "xml": [""],
    "properties": [""],
    "python": ['"', "'"],
    "js": ["'", '"', "`"],
    "go": ['"', '"', "`"],
    "java": ['"'],
    "ruby": ["'", '"'],
    "php": ["'", '"'],
    "csharp": ['"'],
    "rust": ['"'],
    "terraform": ['"'],
}


class Doc:
    """A rendered file: its path and lines (without line ends)."""

    def __init__(self, path, lines, flat=False):
        self.path = path
        self.lines = lines
        self.flat = flat  # lines are independent settings: any one may come last


def insert_random(g, lines, item):
    lines.insert(g.int(0, len(lines)), item)
    return lines


def fill(g, pool, lo, hi):
    return g.sample(pool, g.int(lo, hi))


ENV_FILL = [
    "NODE_ENV=production",
    "PORT=8080",
    "LOG_LEVEL=info",
    "DB_HOST=db.internal",
    "DB_PORT=5432",
    "APP_NAME=shop-api",
    "TZ=UTC",
    "FEATURE_FLAGS=search,checkout",
    "WORKERS=4",
    "S3_BUCKET=acme-uploads",
    "SENTRY_ENVIRONMENT=production",
    "MAX_UPLOAD_MB=25",
    "DEBUG=false",
    "DB_USER=app",
    "CACHE_TTL=300",
    "PUBLIC_URL=https://shop.example.com",
    "QUEUE=default",
    "AWS_REGION=eu-west-1",
]
YAML_CHILD = [
    "host: db.internal",
    "port: 5432",
    "timeout: 30s",
    "enabled: true",
    "region: eu-west-1",
    "retries: 3",
    "username: deploy",
    "pool_size: 10",
    "base_url: https://api.example.com",
    "verify_ssl: true",
    "max_connections: 50",
    "name: billing",
    "queue: default",
]
YAML_TOP = [
    "app:\n  name: shop\n  env: production",
    "logging:\n  level: info",
    "server:\n  port: 8080\n  workers: 4",
    "cache:\n  ttl: 300",
    "features:\n  - search\n  - checkout",
    "version: 3",
]
YAML_PARENTS = [
    "database",
    "auth",
    "integrations",
    "services",
    "credentials",
    "api",
    "deploy",
    "mailer",
    "storage",
    "payments",
    "notifications",
    "ci",
]


def r_env(g, name, rhs):
    lines = fill(g, ENV_FILL, 2, 7)
    insert_random(g, lines, "%s=%s" % (name, rhs))
    if g.chance(0.3):
        lines.insert(
            0,
            g.pick(
                [
                    "# production settings",
                    "# generated by bootstrap.sh",
                    "# do not commit changes to this file",
                    "# staging",
                ]
            ),
        )
    path = g.pick(
        [
            ".env",
            ".env.production",
            "deploy/prod.env",
            "docker/app.env",
            "services/api/.env.staging",
            "config/.env.local",
        ]
    )
    return Doc(path, lines, flat=True)


def r_yaml(g, name, rhs, helm=False):
    lines = []
    for t in fill(g, YAML_TOP, 0, 2):
        lines += t.split("\n")
    parent = g.pick(YAML_PARENTS)
    lines.append(parent + ":")
    kids = ["  " + c for c in fill(g, YAML_CHILD, 1, 4)]
    insert_random(g, kids, "  %s: %s" % (name, rhs))
    lines += kids
    if g.chance(0.5):
        lines += g.pick(YAML_TOP).split("\n")
    if helm:
        path = g.pick(
            [
                "charts/api/values.yaml",
                "helm/values-prod.yaml",
                "deploy/chart/values.yaml",
                "charts/worker/values-staging.yaml",
            ]
        )
        lines.insert(0, g.pick(["replicaCount: 2", "image:\n  repository: acme/api\n  tag: 1.4.2"]))
        lines = "\n".join(lines).split("\n")
    else:
        path = g.pick(
            [
                "config/app.yml",
                "config/settings.yaml",
                "config/production.yml",
                "app/config/secrets.yml",
                "conf/application.yaml",
                "ops/ansible/group_vars/prod.yml",
                "config/services.yml",
            ]
        )
    return Doc(path, lines)


def r_json(g, name, rhs):
    parent = g.pick(YAML_PARENTS)
    kids = g.sample(
        [
            '"host": "db.internal"',
            '"port": 5432',
            '"timeout": 30',
            '"enabled": true',
            '"region": "eu-west-1"',
            '"retries": 3',
            '"username": "deploy"',
            '"baseUrl": "https://api.example.com"',
        ],
        g.int(1, 3),
    )
    insert_random(g, kids, '"%s": %s' % (name, rhs))
    lines = [
        "{",
        '  "name": "%s",' % g.pick(["shop-api", "billing", "worker", "web"]),
        '  "%s": {' % parent,
    ]
    for i, k in enumerate(kids):
        lines.append("    " + k + ("," if i < len(kids) - 1 else ""))
    lines.append("  },")
    lines.append('  "logLevel": "%s"' % g.pick(["info", "warn", "debug"]))
    lines.append("}")
    path = g.pick(
        [
            "config/default.json",
            "appsettings.Production.json",
            "config/prod.json",
            "src/config.json",
            "settings/local.json",
            "app.json",
        ]
    )
    return Doc(path, lines)


def r_toml(g, name, rhs):
    section = g.pick(YAML_PARENTS)
    kids = fill(
        g,
        [
            'host = "db.internal"',
            "port = 5432",
            'region = "eu-west-1"',
            "retries = 3",
            'username = "deploy"',
            "enabled = true",
            'timeout = "30s"',
        ],
        1,
        3,
    )
    insert_random(g, kids, "%s = %s" % (name, rhs))
    lines = ['title = "%s"' % g.pick(["shop", "billing", "ingest"]), "", "[%s]" % section] + kids
    if g.chance(0.5):
        lines += ["", "[server]", "port = 8080"]
    path = g.pick(
        [
            "config.toml",
            "settings/prod.toml",
            "netlify.toml",
            "app/config/production.toml",
            "deploy/config.toml",
        ]
    )
    return Doc(path, lines)


def r_ini(g, name, rhs):
    section = g.pick(YAML_PARENTS + ["DEFAULT", "main", "client"])
    sep = g.pick([" = ", "=", ": "])
    kids = fill(
        g,
        [
            "host%sdb.internal",
            "port%s5432",
            "region%seu-west-1",
            "retries%s3",
            "user%sdeploy",
            "enabled%strue",
            "timeout%s30",
        ],
        1,
        4,
    )
    kids = [k % sep for k in kids]
    insert_random(g, kids, "%s%s%s" % (name, sep, rhs))
    lines = ["[%s]" % section] + kids
    if g.chance(0.4):
        lines = ["; %s" % g.pick(["production", "managed by ansible", "local overrides"])] + lines
    path = g.pick(
        [
            "config.ini",
            "setup.cfg",
            "conf/app.ini",
            "etc/service.conf",
            "deploy/app.cfg",
            "php.ini",
            "config/database.ini",
        ]
    )
    return Doc(path, lines)


def r_xml(g, name, value):
    style = g.pick(["appsettings", "element", "element", "property"])
    if style == "appsettings":
        kids = [
            '    <add key="Environment" value="Production" />',
            '    <add key="MaxRetries" value="3" />',
            '    <add key="Region" value="westeurope" />',
        ]
        kids = g.sample(kids, g.int(1, 3))
        insert_random(g, kids, '    <add key="%s" value="%s" />' % (name, value))
        lines = (
            ['<?xml version="1.0" encoding="utf-8"?>', "<configuration>", "  <appSettings>"]
            + kids
            + ["  </appSettings>", "</configuration>"]
        )
        path = g.pick(["Web.config", "App.config", "src/Api/Web.Release.config"])
    elif style == "element":
        kids = [
            "    <id>%s</id>" % g.pick(["releases", "internal", "nexus"]),
            "    <username>%s</username>" % g.pick(["deploy", "ci", "maven"]),
        ]
        kids.append("    <%s>%s</%s>" % (name, value, name))
        lines = (
            ["<settings>", "  <servers>", "   <server>"]
            + kids
            + ["   </server>", "  </servers>", "</settings>"]
        )
        path = g.pick(
            ["settings.xml", "ci/maven-settings.xml", ".mvn/settings.xml", "conf/server.xml"]
        )
    else:
        lines = [
            '<bean id="dataSource" class="org.apache.commons.dbcp2.BasicDataSource">',
            '  <property name="url" value="jdbc:postgresql://db:5432/shop" />',
            '  <property name="username" value="shop" />',
            '  <property name="%s" value="%s" />' % (name, value),
            "</bean>",
        ]
        path = g.pick(["src/main/resources/applicationContext.xml", "WEB-INF/datasource.xml"])
    return Doc(path, lines)


def r_properties(g, name, rhs):
    prefix = g.pick(
        ["spring.datasource", "app.mail", "app.api", "service.client", "db", "smtp", "app.security"]
    )
    sep = g.pick(["=", "=", " = ", ": "])
    kids = fill(
        g,
        [
            "%s.url%sjdbc:mysql://db:3306/app" % (prefix, sep),
            "%s.username%sapp" % (prefix, sep),
            "server.port%s8080" % sep,
            "logging.level.root%sINFO" % sep,
            "%s.timeout%s30000" % (prefix, sep),
            "spring.jpa.hibernate.ddl-auto%svalidate" % sep,
        ],
        1,
        4,
    )
    insert_random(g, kids, "%s.%s%s%s" % (prefix, name, sep, rhs))
    path = g.pick(
        [
            "src/main/resources/application.properties",
            "gradle.properties",
            "config/app.properties",
            "src/main/resources/application-prod.properties",
        ]
    )
    return Doc(path, kids, flat=True)


def r_code(g, lang, name, rhs):
    if lang == "python":
        form = g.pick(["const", "kwarg", "dict", "attr"])
        head = g.pick(
            [
                ["import os", "import requests", ""],
                ["from pathlib import Path", ""],
                ["import boto3", "import logging", "", "log = logging.getLogger(__name__)", ""],
            ]
        )
        if form == "const":
            body = [
                'BASE_URL = "https://api.example.com/v2"',
                "%s = %s" % (name, rhs),
                "TIMEOUT = 30",
            ]
        elif form == "kwarg":
            body = [
                "def make_client():",
                "    return Client(",
                '        base_url="https://api.example.com",',
                "        %s=%s," % (name.lower(), rhs),
                "        timeout=30,",
                "    )",
            ]
        elif form == "dict":
            body = [
                "SETTINGS = {",
                '    "region": "eu-west-1",',
                '    "%s": %s,' % (name.lower(), rhs),
                '    "retries": 3,',
                "}",
            ]
        else:
            body = [
                "class Config:",
                "    DEBUG = False",
                "    %s = %s" % (name.upper(), rhs),
                "    SQLALCHEMY_ECHO = False",
            ]
        path = g.pick(
            [
                "settings.py",
                "app/config.py",
                "scripts/sync.py",
                "src/app/settings/production.py",
                "tools/deploy.py",
                "tests/conftest.py",
            ]
        )
        return Doc(path, head + body)
    if lang == "js":
        form = g.pick(["const", "object", "call"])
        if form == "const":
            body = [
                "const axios = require('axios');",
                "",
                "const %s = %s;" % (name, rhs),
                "const client = axios.create({ baseURL: 'https://api.example.com' });",
            ]
        elif form == "object":
            body = [
                "export default {",
                "  region: 'eu-west-1',",
                "  %s: %s," % (name, rhs),
                "  retries: 3,",
                "};",
            ]
        else:
            body = [
                "import { Client } from './client';",
                "",
                "const client = new Client({",
                "  %s: %s," % (name, rhs),
                "  timeout: 30_000,",
                "});",
            ]
        path = g.pick(
            [
                "config/index.js",
                "src/config.ts",
                "scripts/upload.js",
                "server/env.js",
                "next.config.js",
                "src/lib/api.ts",
            ]
        )
        return Doc(path, body)
    if lang == "go":
        form = g.pick(["const", "struct", "var"])
        if form == "const":
            body = [
                "package config",
                "",
                "const (",
                '\tbaseURL = "https://api.example.com"',
                "\t%s = %s" % (name, rhs),
                ")",
            ]
        elif form == "struct":
            body = [
                "func newClient() *Client {",
                "\treturn &Client{",
                '\t\tBaseURL: "https://api.example.com",',
                "\t\t%s: %s," % (name[0].upper() + name[1:], rhs),
                "\t\tTimeout: 30 * time.Second,",
                "\t}",
                "}",
            ]
        else:
            body = [
                "package main",
                "",
                "var %s = %s" % (name, rhs),
                "",
                "func main() {",
                "\trun()",
                "}",
            ]
        path = g.pick(["cmd/server/main.go", "internal/config/config.go", "pkg/client/client.go"])
        return Doc(path, body)
    if lang == "java":
        form = g.pick(["field", "put"])
        if form == "field":
            body = [
                "public class ApiConfig {",
                '    private static final String BASE_URL = "https://api.example.com";',
                "    private static final String %s = %s;"
                % (name.upper() if g.chance(0.5) else name, rhs),
                "    private final int timeout = 30;",
                "}",
            ]
        else:
            body = [
                "Properties props = new Properties();",
                'props.put("user", "shop");',
                'props.put("%s", %s);' % (name, rhs),
                "Connection c = DriverManager.getConnection(url, props);",
            ]
        path = g.pick(
            [
                "src/main/java/com/acme/ApiConfig.java",
                "src/main/java/com/shop/billing/PaymentClient.java",
                "app/src/main/java/io/acme/Db.java",
            ]
        )
        return Doc(path, body)
    if lang == "ruby":
        body = g.pick(
            [
                [
                    "Rails.application.configure do",
                    "  config.%s = %s" % (name, rhs),
                    "  config.log_level = :info",
                    "end",
                ],
                ["Client.configure do |c|", "  c.%s = %s" % (name, rhs), "  c.timeout = 30", "end"],
                ["DEFAULTS = {", "  region: 'eu-west-1',", "  %s: %s," % (name, rhs), "}.freeze"],
            ]
        )
        path = g.pick(
            [
                "config/initializers/client.rb",
                "config/environments/production.rb",
                "lib/tasks/deploy.rake",
            ]
        )
        return Doc(path, body)
    if lang == "php":
        body = g.pick(
            [
                [
                    "<?php",
                    "",
                    "return [",
                    "    'host' => 'db.internal',",
                    "    '%s' => %s," % (name.lower(), rhs),
                    "    'port' => 3306,",
                    "];",
                ],
                [
                    "<?php",
                    "define('DB_NAME', 'wordpress');",
                    "define('%s', %s);" % (name.upper(), rhs),
                    "define('DB_HOST', 'localhost');",
                ],
            ]
        )
        path = g.pick(["config/database.php", "wp-config.php", "config/services.php"])
        return Doc(path, body)
    if lang == "csharp":
        body = g.pick(
            [
                [
                    "public static class Settings",
                    "{",
                    "    public const string %s = %s;" % (name, rhs),
                    "    public const int Retries = 3;",
                    "}",
                ],
                [
                    "services.Configure<ApiOptions>(o =>",
                    "{",
                    '    o.BaseUrl = "https://api.example.com";',
                    "    o.%s = %s;" % (name, rhs),
                    "});",
                ],
            ]
        )
        path = g.pick(["src/Api/Startup.cs", "Services/MailService.cs", "src/Worker/Settings.cs"])
        return Doc(path, body)
    if lang == "rust":
        body = g.pick(
            [
                [
                    "use std::time::Duration;",
                    "",
                    "const %s: &str = %s;" % (name.upper(), rhs),
                    "const TIMEOUT: Duration = Duration::from_secs(30);",
                ],
                [
                    "fn client() -> Client {",
                    "    let %s = %s;" % (name.lower(), rhs),
                    "    Client::new(%s)" % name.lower(),
                    "}",
                ],
            ]
        )
        path = g.pick(["src/config.rs", "src/main.rs", "crates/api/src/lib.rs"])
        return Doc(path, body)
    raise ValueError(lang)


def r_shell(g, name, rhs):
    form = g.pick(["export", "export", "inline", "assign"])
    lines = ["#!/usr/bin/env bash", "set -euo pipefail", ""]
    if form == "export":
        lines += [
            "export %s=%s" % (name, rhs),
            'export APP_ENV="production"',
            "",
            "./bin/%s --region eu-west-1" % g.pick(["deploy", "sync", "publish", "migrate"]),
        ]
    elif form == "inline":
        lines += [
            "%s=%s ./scripts/%s.sh" % (name, rhs, g.pick(["release", "upload", "backup"])),
            'echo "done"',
        ]
    else:
        lines += ["%s=%s" % (name, rhs), 'curl -fsS "https://api.example.com/v1/status"']
    path = g.pick(
        [
            "scripts/deploy.sh",
            "bin/release",
            "ci/publish.sh",
            ".github/scripts/upload.sh",
            "tools/backup.sh",
        ]
    )
    return Doc(path, lines)


def r_dockerfile(g, name, rhs):
    base = g.pick(
        [
            "node:20-alpine",
            "python:3.12-slim",
            "golang:1.22 AS build",
            "eclipse-temurin:21-jre",
            "debian:bookworm-slim",
        ]
    )
    kw = g.pick(["ENV", "ENV", "ARG"])
    sep = g.pick(["=", " "]) if kw == "ENV" else "="
    lines = [
        "FROM " + base,
        "WORKDIR /app",
        "%s %s%s%s" % (kw, name, sep, rhs),
        "COPY . .",
        g.pick(
            [
                "RUN npm ci --omit=dev",
                "RUN pip install -r requirements.txt",
                "RUN go build ./...",
                'CMD ["./server"]',
            ]
        ),
    ]
    path = g.pick(["Dockerfile", "docker/api.Dockerfile", "build/Dockerfile.prod"])
    return Doc(path, lines)


def r_terraform(g, name, rhs):
    form = g.pick(["provider", "resource", "variable", "locals"])
    if form == "provider":
        lines = [
            'provider "%s" {'
            % g.pick(["datadog", "github", "cloudflare", "aws", "digitalocean", "heroku"]),
            "  %s = %s" % (name, rhs),
            '  api_url = "https://api.example.com"',
            "}",
        ]
    elif form == "resource":
        lines = [
            'resource "aws_db_instance" "main" {',
            '  engine         = "postgres"',
            '  instance_class = "db.t3.micro"',
            '  username       = "shop"',
            "  %s = %s" % (name, rhs),
            "}",
        ]
    elif form == "variable":
        lines = [
            'variable "%s" {' % name,
            "  type      = string",
            "  default   = %s" % rhs,
            "  sensitive = true",
            "}",
        ]
    else:
        lines = ["locals {", '  env  = "prod"', "  %s = %s" % (name, rhs), "}"]
    path = g.pick(
        [
            "main.tf",
            "infra/providers.tf",
            "terraform/prod/variables.tf",
            "modules/db/main.tf",
            "envs/prod/main.tf",
        ]
    )
    return Doc(path, lines)


def r_ghactions(g, name, rhs):
    lines = [
        "name: deploy",
        "on:",
        "  push:",
        "    branches: [main]",
        "jobs:",
        "  deploy:",
        "    runs-on: ubuntu-latest",
        "    env:",
        "      %s: %s" % (name, rhs),
        "      NODE_VERSION: 20",
        "    steps:",
        "      - uses: actions/checkout@v4",
        "      - run: ./scripts/deploy.sh",
    ]
    path = g.pick(
        [
            ".github/workflows/deploy.yml",
            ".github/workflows/ci.yml",
            ".github/workflows/release.yaml",
        ]
    )
    return Doc(path, lines)


def r_gitlabci(g, name, rhs):
    lines = [
        "stages: [build, deploy]",
        "",
        "variables:",
        "  %s: %s" % (name, rhs),
        "  DOCKER_DRIVER: overlay2",
        "",
        "deploy:",
        "  stage: deploy",
        "  script:",
        "    - ./deploy.sh",
    ]
    return Doc(".gitlab-ci.yml", lines)


def r_k8s(g, name, rhs):
    lines = [
        "apiVersion: apps/v1",
        "kind: Deployment",
        "metadata:",
        "  name: api",
        "spec:",
        "  template:",
        "    spec:",
        "      containers:",
        "        - name: api",
        "          image: acme/api:1.8.0",
        "          env:",
        "            - name: LOG_LEVEL",
        "              value: info",
        "            - name: %s" % name,
        "              value: %s" % rhs,
    ]
    path = g.pick(["k8s/deployment.yaml", "manifests/api.yaml", "deploy/k8s/worker.yaml"])
    return Doc(path, lines)


def r_compose(g, name, rhs):
    form = g.pick(["list", "map"])
    lines = ["services:", "  api:", "    image: acme/api:latest", "    environment:"]
    if form == "list":
        lines += ["      - NODE_ENV=production", "      - %s=%s" % (name, rhs)]
    else:
        lines += ["      NODE_ENV: production", "      %s: %s" % (name, rhs)]
    lines += ["    ports:", '      - "8080:8080"']
    path = g.pick(["docker-compose.yml", "docker-compose.prod.yml", "compose.yaml"])
    return Doc(path, lines)


def r_markdown(g, name, rhs):
    lines = [
        "## " + g.pick(["Deploying", "Local setup", "Running the worker", "Release checklist"]),
        "",
        g.pick(
            [
                "Set these before running the script:",
                "The staging job reads:",
                "Copy this into your shell:",
            ]
        ),
        "",
        "```sh",
        "export %s=%s" % (name, rhs),
        "./scripts/run.sh",
        "```",
    ]
    path = g.pick(
        ["README.md", "docs/setup.md", "docs/deploy.md", "CONTRIBUTING.md", "notes/ops.md"]
    )
    return Doc(path, lines)


FORMATS = [
    "env",
    "yaml",
    "helm",
    "json",
    "toml",
    "ini",
    "xml",
    "properties",
    "python",
    "js",
    "go",
    "java",
    "ruby",
    "php",
    "csharp",
    "rust",
    "shell",
    "dockerfile",
    "terraform",
    "ghactions",
    "gitlabci",
    "k8s",
    "compose",
    "markdown",
]
CODE = ["python", "js", "go", "java", "ruby", "php", "csharp", "rust"]


def quote_for(g, fmt, value):
    """The quote to use around `value` in `fmt`, or None when no quoting can hold it."""
    options = list(QUOTES[fmt])
    g.shuffle(options)
    for q in options:
        if q == "" and fmt in ("yaml", "helm", "ghactions", "k8s", "compose", "gitlabci"):
            if (
                value[:1] in "!&*?|>%@`'\"{[#-"
                or ": " in value
                or " #" in value
                or value in ("true", "false", "null", "yes", "no", "on", "off", "~")
                or value.isdigit()
            ):
                continue
        if (
            q == ""
            and fmt in ("env", "shell", "dockerfile", "markdown", "compose")
            and any(c in value for c in " $`\"'\\#;&|<>()*!")
        ):
            continue
        if (
            q == '"'
            and fmt in ("shell", "env", "dockerfile", "markdown")
            and any(c in value for c in '$`"\\!')
        ):
            continue
        if q and (q in value or "\\" in value):
            continue
        if q == "`" and "${" in value:
            continue
        return q
    return None


def render(g, fmt, words, value, rhs=None):
    """Renders a setting named by `words` whose value is `value` (quoted as the format
    wants) or the raw right-hand side `rhs` (a reference in code). Returns a Doc."""
    style = g.pick(STYLE_FOR[fmt])
    name = name_as(words, style)
    if rhs is None:
        if fmt == "xml":
            return r_xml(g, name, value)
        q = quote_for(g, fmt, value)
        if q is None:
            return render(g, "json", words, value) if fmt != "json" else None
        rhs = q + value + q
    elif fmt == "xml":
        return r_xml(g, name, rhs)
    if fmt == "env":
        return r_env(g, name, rhs)
    if fmt in ("yaml", "helm"):
        return r_yaml(g, name, rhs, helm=(fmt == "helm"))
    if fmt == "json":
        return r_json(g, name, rhs)
    if fmt == "toml":
        return r_toml(g, name, rhs)
    if fmt == "ini":
        return r_ini(g, name, rhs)
    if fmt == "properties":
        return r_properties(g, name_as(words, "dot" if style == "dot" else "kebab"), rhs)
    if fmt in CODE:
        return r_code(g, fmt, name, rhs)
    if fmt == "shell":
        return r_shell(g, name, rhs)
    if fmt == "dockerfile":
        return r_dockerfile(g, name, rhs)
    if fmt == "terraform":
        return r_terraform(g, name, rhs)
    if fmt == "ghactions":
        return r_ghactions(g, name, rhs)
    if fmt == "gitlabci":
        return r_gitlabci(g, name, rhs)
    if fmt == "k8s":
        return r_k8s(g, name, rhs)
    if fmt == "compose":
        return r_compose(g, name, rhs)
    if fmt == "markdown":
        return r_markdown(g, name, rhs)
    raise ValueError(fmt)


# ---------------------------------------------------------------------------------------
# Turning a Doc into a record's text: as a file (LF or CRLF, ending in a newline or not),
# as a diff, with the secrets' values following the same transformation.


def diff_header(g, path, new_file=False):
    a, b = g.hex(7), g.hex(7)
    if new_file:
        return [
            "diff --git a/%s b/%s" % (path, path),
            "new file mode 100644",
            "index 0000000..%s" % b,
            "--- /dev/null",
            "+++ b/%s" % path,
        ]
    return [
        "diff --git a/%s b/%s" % (path, path),
        "index %s..%s 100644" % (a, b),
        "--- a/%s" % path,
        "+++ b/%s" % path,
    ]


def hunk_context(lines, lo):
    """What git prints after a hunk's range: the nearest line above it that begins with a
    letter, "_" or "$" (git's default function-name rule)."""
    for k in range(lo - 1, -1, -1):
        if lines[k][:1].isalpha() or lines[k][:1] in "_$":
            return " " + lines[k][:60]
    return ""


def marked_lines(lines, values):
    """Indexes of the lines that hold (part of) any value."""
    text = "\n".join(lines)
    starts = []
    pos = 0
    for ln in lines:
        starts.append(pos)
        pos += len(ln) + 1
    marked = set()
    for v in values:
        i = text.find(v)
        while i >= 0:
            for k, s in enumerate(starts):
                if s <= i + len(v) - 1 and i <= s + len(lines[k]):
                    if s + len(lines[k]) >= i and s <= i + len(v) - 1:
                        marked.add(k)
            i = text.find(v, i + 1)
    return sorted(marked)


def replaced(line, values, by):
    for v in values:
        line = line.replace(v, by)
    return line


def as_diff(g, doc, values, name_hint="TOKEN"):
    """A unified diff that adds (or removes, or replaces) the lines holding the values.
    Returns (text, values as they appear in it)."""
    lines = doc.lines
    marked = marked_lines(lines, values)
    multi = any("\n" in v for v in values)
    mode = (
        g.pick(["add", "add", "remove", "replace"])
        if not multi
        else g.pick(["add", "add", "remove", "new"])
    )
    out = []
    if mode == "new":
        out = diff_header(g, doc.path, new_file=True)
        out.append("@@ -0,0 +1,%d @@" % len(lines))
        out += ["+" + ln for ln in lines]
        prefix = "+"
    else:
        out = diff_header(g, doc.path)
        lo = max(0, marked[0] - g.int(1, 3))
        hi = min(len(lines), marked[-1] + 1 + g.int(1, 3))
        hunk = []
        old_n = new_n = 0
        prefix = "+" if mode in ("add", "replace") else "-"
        for k in range(lo, hi):
            ln = lines[k]
            if k in marked:
                if mode == "replace" and (k == marked[0] or not multi):
                    old = replaced(ln, values, g.pick(["changeme", "", "TODO", "xxx"]))
                    hunk.append("-" + old)
                    old_n += 1
                hunk.append(prefix + ln)
                if prefix == "+":
                    new_n += 1
                else:
                    old_n += 1
                if mode == "remove" and k == marked[-1]:
                    ref = replaced(ln, values, "${%s}" % name_hint)
                    if ref != ln and "\n" not in "".join(values):
                        hunk.append("+" + ref)
                        new_n += 1
            else:
                hunk.append(" " + ln)
                old_n += 1
                new_n += 1
        start = lo + 1
        ctx = hunk_context(lines, lo)
        out.append("@@ -%d,%d +%d,%d @@%s" % (start, old_n, start, new_n, ctx))
        out += hunk
    text = "\n".join(out) + "\n"
    new_values = [v.replace("\n", "\n" + prefix) for v in values]
    return text, new_values


def finish(g, doc, secrets, mode=None, name_hint="TOKEN"):
    """Makes a record body from a Doc holding the given secrets [(value, what)]."""
    values = [v for v, _ in secrets]
    if mode is None:
        mode = g.pick(["file"] * 11 + ["crlf"] * 3 + ["diff"] * 5 + ["end"] * 2)
    if mode == "end" and not doc.flat:
        mode = "file"
    kind = "file"
    if mode == "diff":
        text, new_values = as_diff(g, doc, values, name_hint)
        kind = "diff"
    else:
        lines = list(doc.lines)
        if mode == "end":
            marked = marked_lines(lines, values)
            if len(marked) == 1 and lines[marked[0]].endswith(values[0]):
                ln = lines.pop(marked[0])
                lines.append(ln)
                text = "\n".join(lines)
            else:
                text = "\n".join(lines) + "\n"
        else:
            text = "\n".join(lines) + "\n"
        new_values = values
        if mode == "crlf":
            text = text.replace("\n", "\r\n")
            new_values = [v.replace("\n", "\r\n") for v in values]
    out = [{"value": nv, "what": w} for nv, (_, w) in zip(new_values, secrets)]
    return kind, doc.path, text, out


# ---------------------------------------------------------------------------------------
# Provider tokens. Each generator returns (value, what); NAMES lists the words settings
# holding it are usually named with.


def v_aws_id(g):
    return g.pick(["AKIA", "AKIA", "AKIA", "ASIA", "ABIA", "ACCA"]) + g.mixed(B32, 16)


def v_aws_secret(g):
    while True:
        v = g.mixed(ALNUM + "+/", 40)
        if "EXAMPLE" not in v:
            return v


def v_github(g):
    p = g.pick(["ghp_", "ghp_", "ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_"])
    if p == "github_pat_":
        return "github_pat_" + g.mixed(ALNUM, 22) + "_" + g.mixed(ALNUM, 59), "GitHub token"
    return crc_token(g, p), "GitHub token"


def v_gitlab(g):
    p = g.pick(
        [
            "glpat-",
            "glpat-",
            "glpat-r",
            "gldt-",
            "glrt-",
            "glptt-",
            "GR1348941",
            "glcbt-",
            "gloas-",
            "glft-",
            "glsoat-",
            "glimt-",
            "glagent-",
        ]
    )
    if p == "glpat-r":
        v = "glpat-" + g.mixed(B64URL, g.int(27, 40)) + "." + "01" + g.s(DIGITS + LOWER, 7)
    elif p == "glptt-":
        v = p + g.hex(40)
    elif p == "glcbt-":
        v = p + g.s(ALNUM, g.int(1, 5)) + "_" + g.mixed(B64URL, 20)
    elif p == "gloas-":
        v = p + g.mixed(B64URL, 64)
    elif p == "glimt-":
        v = p + g.mixed(ALNUM, 25)
    elif p == "glagent-":
        v = p + g.mixed(B64URL, 50)
    else:
        v = p + g.mixed(ALNUM + "_-", 20)
    return v, "GitLab token"


def v_slack(g):
    k = g.pick(["xoxb", "xoxb", "xoxp", "xapp", "xoxe", "webhook", "webhook"])
    if k == "xoxb":
        return (
            "xoxb-%d-%d-%s"
            % (g.int(10**10, 10**12), g.int(10**11, 10**13), g.mixed(ALNUM, 24)),
            "Slack token",
        )
    if k == "xoxp":
        return (
            "xoxp-%d-%d-%d-%s"
            % (
                g.int(10**10, 10**12),
                g.int(10**10, 10**12),
                g.int(10**11, 10**13),
                g.hex(32),
            ),
            "Slack token",
        )
    if k == "xapp":
        return (
            "xapp-1-A%s-%d-%s" % (g.s(UPPER + DIGITS, 10), g.int(10**12, 10**13), g.hex(64)),
            "Slack token",
        )
    if k == "xoxe":
        return "xoxe.xoxp-1-" + g.mixed(ALNUM, 164), "Slack token"
    return g.mixed(ALNUM, 24), "Slack webhook"


def slack_webhook_url(g, secret):
    return "https://hooks.slack.com/services/T%s/B%s/%s" % (
        g.s(UPPER + DIGITS, 8),
        g.s(UPPER + DIGITS, 10),
        secret,
    )


def v_stripe(g):
    p = g.pick(["sk_live_", "sk_live_", "sk_test_", "rk_live_", "rk_test_", "whsec_"])
    if p == "whsec_":
        return p + g.mixed(ALNUM, 32), "Stripe webhook secret"
    return p + g.mixed(ALNUM, g.pick([24, 99, 99])), "Stripe key"


def v_google(g):
    if g.chance(0.7):
        return "AIza" + g.mixed(ALNUM + "-_", 35), "Google API key"
    return "GOCSPX-" + g.mixed(ALNUM + "-_", 28), "Google OAuth client secret"


def v_openai(g):
    k = g.pick(["proj", "proj", "svcacct", "admin", "legacy"])
    if k == "legacy":
        return "sk-" + g.mixed(ALNUM, 20) + "T3BlbkFJ" + g.mixed(ALNUM, 20), "OpenAI key"
    n = g.pick([74, 58])
    return "sk-%s-%sT3BlbkFJ%s" % (k, g.mixed(B64URL, n), g.mixed(B64URL, n)), "OpenAI key"


def v_anthropic(g):
    k = g.pick(["api03", "api03", "api03", "admin01"])
    return "sk-ant-%s-%sAA" % (k, g.mixed(B64URL, 93)), "Anthropic key"


def v_npm(g):
    return crc_token(g, "npm_"), "npm token"


def v_telegram(g):
    return "%d:AA%s" % (g.int(10**8, 8 * 10**9), g.mixed(B64URL, 33)), "Telegram bot token"


def b64url_json(obj):
    return (
        base64.urlsafe_b64encode(json.dumps(obj, separators=(",", ":")).encode())
        .decode()
        .rstrip("=")
    )


def v_jwt(g):
    alg = g.pick(["HS256", "HS256", "RS256", "ES256", "HS512"])
    header = {"alg": alg, "typ": "JWT"}
    if alg != "HS256" and g.chance(0.5):
        header["kid"] = g.hex(16)
    iat = g.int(1600000000, 1760000000)
    payload = {
        "sub": str(g.int(1000, 999999)) if g.chance(0.5) else g.uuid(),
        "iat": iat,
        "exp": iat + g.pick([3600, 86400, 2592000, 31536000]),
    }
    if g.chance(0.6):
        payload["name"] = g.pick(
            ["Ada Lovelace", "ci-bot", "svc-billing", "Grace Hopper", "deploy"]
        )
    if g.chance(0.5):
        payload["role"] = g.pick(["admin", "service", "user", "anon", "service_role"])
    if g.chance(0.4):
        payload["iss"] = g.pick(["https://auth.example.com", "supabase", "acme-idp"])
    sig_len = {"HS256": 32, "RS256": 256, "ES256": 64, "HS512": 64}[alg]
    return "%s.%s.%s" % (b64url_json(header), b64url_json(payload), g.b64url(sig_len)), "JWT"


def v_azure(g):
    k = g.pick(["storage", "storage", "adsecret", "adsecret", "devops", "devops_old", "servicebus"])
    if k == "storage":
        return g.b64(64), "Azure storage key"
    if k == "adsecret":
        return (
            g.mixed(ALNUM + "_~.", 3) + str(g.int(0, 9)) + "Q~" + g.mixed(ALNUM + "_~.-", 34),
            "Azure client secret",
        )
    if k == "devops":
        return (
            g.mixed(ALNUM, 52) + "JQQJ99" + g.mixed(ALNUM, 18) + "AZDO" + g.mixed(ALNUM, 4),
            "Azure DevOps token",
        )
    if k == "devops_old":
        return g.s("abcdefghijklmnopqrstuvwxyz234567", 52), "Azure DevOps token"
    return g.b64(32), "Azure Service Bus key"


def v_twilio(g):
    k = g.pick(["apikey", "auth", "secret"])
    if k == "apikey":
        return "SK" + g.hex(32), "Twilio API key"
    if k == "auth":
        return g.hex(32), "Twilio auth token"
    return g.mixed(ALNUM, 32), "Twilio API secret"


def v_sendgrid(g):
    return "SG." + g.mixed(B64URL, 22) + "." + g.mixed(B64URL, 43), "SendGrid key"


def v_shopify(g):
    return g.pick(["shpat_", "shpat_", "shpca_", "shppa_", "shpss_"]) + g.hex(32), "Shopify token"


def v_huggingface(g):
    if g.chance(0.85):
        return "hf_" + g.mixed(string.ascii_letters, 34), "Hugging Face token"
    return "api_org_" + g.mixed(string.ascii_letters, 34), "Hugging Face token"


def v_pypi(g):
    return "pypi-AgEIcHlwaS5vcmc" + g.mixed(B64URL, g.int(120, 190)), "PyPI token"


def v_docker(g):
    p = g.pick(["dckr_pat_", "dckr_pat_", "dckr_oat_"])
    return p + g.mixed(B64URL, 27 if p == "dckr_pat_" else 32), "Docker Hub token"


def v_digitalocean(g):
    return g.pick(["dop_v1_", "dop_v1_", "doo_v1_", "dor_v1_"]) + g.hex(64), "DigitalOcean token"


def v_datadog(g):
    if g.chance(0.5):
        return g.hex(32), "Datadog API key"
    return g.hex(40), "Datadog application key"


def v_mailgun(g):
    if g.chance(0.5):
        return "key-" + g.hex(32), "Mailgun key"
    return g.hex(32) + "-" + g.hex(8) + "-" + g.hex(8), "Mailgun key"


def v_heroku(g):
    if g.chance(0.6):
        return "HRKU-AA" + g.mixed(B64URL, 58), "Heroku key"
    return g.uuid(), "Heroku key"


def v_discord(g):
    if g.chance(0.6):
        uid = str(g.int(2 * 10**17, 14 * 10**17))
        first = base64.b64encode(uid.encode()).decode().rstrip("=")
        return (
            "%s.%s.%s" % (first, g.mixed(B64URL, 6), g.mixed(B64URL, g.pick([27, 38]))),
            "Discord token",
        )
    return g.mixed(B64URL, 68), "Discord webhook"


def discord_webhook_url(g, secret):
    return "https://%s/api/webhooks/%d/%s" % (
        g.pick(["discord.com", "discordapp.com"]),
        g.int(10**17, 14 * 10**17),
        secret,
    )


OTHER = [
    ("Postman key", lambda g: "PMAK-" + g.hex(24) + "-" + g.hex(34), [["postman", "api", "key"]]),
    ("Linear key", lambda g: "lin_api_" + g.mixed(ALNUM, 40), [["linear", "api", "key"]]),
    ("Vault token", lambda g: "hvs." + g.mixed(B64URL, g.int(90, 100)), [["vault", "token"]]),
    (
        "age secret key",
        lambda g: "AGE-SECRET-KEY-1" + g.s(BECH32, 58),
        [["age", "key"], ["sops", "age", "key"]],
    ),
    ("Databricks token", lambda g: "dapi" + g.hex(32), [["databricks", "token"]]),
    ("Sentry token", lambda g: "sntryu_" + g.hex(64), [["sentry", "auth", "token"]]),
    (
        "Grafana token",
        lambda g: "glsa_" + g.mixed(ALNUM, 32) + "_" + g.hex(8),
        [["grafana", "token"]],
    ),
    (
        "New Relic key",
        lambda g: "NRAK-" + g.mixed(UPPER + DIGITS, 27),
        [["new", "relic", "api", "key"]],
    ),
    (
        "Atlassian token",
        lambda g: "ATATT3xFfGF0" + g.mixed(B64URL, 170) + "=" + g.hex(8).upper(),
        [["jira", "api", "token"], ["confluence", "token"]],
    ),
    ("Square token", lambda g: "EAAA" + g.mixed(B64URL, 60), [["square", "access", "token"]]),
    (
        "Mailchimp key",
        lambda g: g.hex(32) + "-us" + str(g.int(1, 21)),
        [["mailchimp", "api", "key"]],
    ),
    ("Pulumi token", lambda g: "pul-" + g.hex(40), [["pulumi", "access", "token"]]),
    ("Doppler token", lambda g: "dp.pt." + g.mixed(ALNUM, 43), [["doppler", "token"]]),
    ("RubyGems key", lambda g: "rubygems_" + g.hex(48), [["gem", "host", "api", "key"]]),
    (
        "PlanetScale password",
        lambda g: "pscale_pw_" + g.mixed(ALNUM + "_", 43),
        [["database", "password"]],
    ),
    ("Alibaba key", lambda g: "LTAI" + g.mixed(ALNUM, 20), [["alibaba", "access", "key", "id"]]),
    ("Perplexity key", lambda g: "pplx-" + g.mixed(ALNUM, 48), [["perplexity", "api", "key"]]),
    (
        "Notion token",
        lambda g: "ntn_" + "".join(g.s(DIGITS, 11)) + g.mixed(ALNUM, 35),
        [["notion", "token"]],
    ),
    (
        "Dynatrace token",
        lambda g: "dt0c01." + g.mixed(UPPER + DIGITS, 24) + "." + g.mixed(UPPER + DIGITS, 64),
        [["dt", "api", "token"]],
    ),
    (
        "Sourcegraph token",
        lambda g: "sgp_" + g.hex(16) + "_" + g.hex(40),
        [["src", "access", "token"]],
    ),
    ("Fly.io token", lambda g: "fo1_" + g.mixed(B64URL, 43), [["fly", "api", "token"]]),
    (
        "Sendinblue key",
        lambda g: "xkeysib-" + g.hex(64) + "-" + g.mixed(ALNUM, 16),
        [["brevo", "api", "key"]],
    ),
    ("Shippo token", lambda g: "shippo_live_" + g.hex(40), [["shippo", "token"]]),
    ("Prefect key", lambda g: "pnu_" + g.mixed(ALNUM, 36), [["prefect", "api", "key"]]),
    (
        "Cloudflare origin CA key",
        lambda g: "v1.0-" + g.hex(24) + "-" + g.hex(146),
        [["cloudflare", "origin", "ca", "key"]],
    ),
]


def v_other(g):
    what, fn, names = g.pick(OTHER)
    return fn(g), what, names


# The settings' names, as words, usually given to each provider's values.
NAMES = {
    "github": [
        ["github", "token"],
        ["gh", "token"],
        ["github", "pat"],
        ["git", "token"],
        ["token"],
        ["github", "access", "token"],
    ],
    "gitlab": [
        ["gitlab", "token"],
        ["gl", "token"],
        ["ci", "job", "token"],
        ["gitlab", "private", "token"],
        ["registration", "token"],
    ],
    "slack": [["slack", "bot", "token"], ["slack", "token"], ["slack", "app", "token"]],
    "slack-webhook": [
        ["slack", "webhook", "url"],
        ["slack", "webhook"],
        ["webhook", "url"],
        ["alerts", "webhook"],
    ],
    "stripe": [
        ["stripe", "secret", "key"],
        ["stripe", "api", "key"],
        ["stripe", "key"],
        ["stripe", "webhook", "secret"],
    ],
    "google": [
        ["google", "api", "key"],
        ["gcp", "api", "key"],
        ["maps", "api", "key"],
        ["google", "client", "secret"],
        ["gemini", "api", "key"],
    ],
    "openai": [["openai", "api", "key"], ["openai", "key"], ["llm", "api", "key"]],
    "anthropic": [["anthropic", "api", "key"], ["claude", "api", "key"], ["anthropic", "key"]],
    "npm": [["npm", "token"], ["npm", "auth", "token"], ["node", "auth", "token"]],
    "telegram": [["telegram", "bot", "token"], ["bot", "token"], ["tg", "token"]],
    "jwt": [
        ["jwt"],
        ["access", "token"],
        ["auth", "token"],
        ["service", "role", "key"],
        ["id", "token"],
        ["bearer", "token"],
    ],
    "azure": [
        ["azure", "storage", "key"],
        ["account", "key"],
        ["azure", "client", "secret"],
        ["azure", "devops", "pat"],
        ["ado", "token"],
        ["shared", "access", "key"],
    ],
    "twilio": [["twilio", "auth", "token"], ["twilio", "api", "secret"], ["twilio", "api", "key"]],
    "sendgrid": [["sendgrid", "api", "key"], ["smtp", "password"], ["mail", "api", "key"]],
    "shopify": [["shopify", "access", "token"], ["shopify", "api", "secret"], ["shopify", "token"]],
    "huggingface": [["hf", "token"], ["huggingface", "token"], ["hugging", "face", "hub", "token"]],
    "pypi": [["pypi", "token"], ["twine", "password"], ["pypi", "api", "token"]],
    "docker": [
        ["docker", "hub", "token"],
        ["docker", "password"],
        ["dockerhub", "token"],
        ["registry", "password"],
    ],
    "digitalocean": [
        ["digitalocean", "token"],
        ["do", "token"],
        ["digitalocean", "access", "token"],
    ],
    "datadog": [
        ["dd", "api", "key"],
        ["datadog", "api", "key"],
        ["dd", "app", "key"],
        ["datadog", "app", "key"],
    ],
    "mailgun": [["mailgun", "api", "key"], ["mailgun", "key"], ["mailgun", "signing", "key"]],
    "heroku": [["heroku", "api", "key"], ["heroku", "token"]],
    "discord": [["discord", "token"], ["discord", "bot", "token"], ["bot", "token"]],
    "discord-webhook": [["discord", "webhook", "url"], ["discord", "webhook"], ["webhook", "url"]],
}
# Names that say nothing about a secret: a provider's format must be recognised alone.
NEUTRAL = [
    ["value"],
    ["default"],
    ["config"],
    ["arg"],
    ["dsn"],
    ["remote"],
    ["key"],
    ["client", "id"],
]


def positive_token_record(g, value, what, names, styles=None, prose=None, shaped=True):
    """A record holding one provider value, in one of many formats and positions. A value
    without a shape of its own (`shaped` false: 32 hex digits, a UUID, 88 base64 characters)
    is found only by what it is given to, so it is always in a setting named for a secret, an
    Authorization header, or a message that names it — never under a neutral name or alone."""
    if not shaped:
        styles = [
            s
            for s in (styles or FORMATS + ["header", "json_escaped", "commit"])
            if s not in ("prose", "code_call", "url")
        ]
    style = g.pick(
        styles
        or (
            FORMATS * 2
            + [
                "header",
                "header",
                "url",
                "commit",
                "commit",
                "json_escaped",
                "json_escaped",
                "prose",
                "code_call",
            ]
        )
    )
    words = g.pick(names) if not shaped or not g.chance(0.12) else g.pick(NEUTRAL)
    if style == "header":
        return header_record(g, value, what)
    if style == "url":
        return url_token_record(g, value, what)
    if style == "commit":
        return commit_record(g, [(value, what)], words, named=not shaped)
    if style == "json_escaped":
        return json_escaped_record(g, value, what, words)
    if style == "prose":
        return prose_token_record(g, value, what, prose)
    if style == "code_call":
        return code_call_record(g, value, what)
    doc = render(g, style, words, value)
    if doc is None:
        doc = render(g, "yaml", words, value)
    return finish(g, doc, [(value, what)], name_hint=name_as(words, "UPPER"))


def header_record(g, value, what):
    form = g.pick(["curl", "curl", "http", "fetch", "python"])
    scheme = g.pick(["Bearer ", "Bearer ", "token ", ""])
    hdr = (
        "Authorization: " + scheme
        if scheme
        else g.pick(["X-Api-Key: ", "Authorization: Bearer ", "X-Auth-Token: "])
    )
    url = g.pick(
        [
            "https://api.example.com/v1/orders",
            "https://api.github.com/user/repos",
            "https://hooks.internal/v2/events",
            "https://example.com/api/graphql",
        ]
    )
    if form == "curl":
        lines = [
            "#!/bin/sh",
            "curl -sS %s \\" % url,
            "  -H %s%s%s \\" % ("'", hdr + value, "'"),
            "  -H 'Accept: application/json'",
        ]
        path = g.pick(["scripts/check.sh", "docs/api.md", "tools/smoke.sh"])
    elif form == "http":
        lines = ["### list orders", "GET %s" % url, hdr + value, "Accept: application/json", ""]
        path = g.pick(["api.http", "requests/orders.http", "test/requests.rest"])
    elif form == "fetch":
        lines = [
            "const res = await fetch('%s', {" % url,
            "  headers: {",
            "    '%s': '%s'," % (hdr.split(":")[0], hdr.split(": ", 1)[1] + value),
            "  },",
            "});",
        ]
        path = g.pick(["src/api.js", "scripts/sync.mjs", "web/src/lib/client.ts"])
    else:
        lines = [
            "import requests",
            "",
            "r = requests.get(",
            '    "%s",' % url,
            '    headers={"%s": "%s"},' % (hdr.split(":")[0], hdr.split(": ", 1)[1] + value),
            ")",
        ]
        path = g.pick(["scripts/report.py", "tools/export.py"])
    return finish(g, Doc(path, lines), [(value, what)])


def url_token_record(g, value, what):
    if value.startswith(("ghp_", "gho_", "ghs_", "ghu_", "github_pat_")):
        url = "https://x-access-token:%s@github.com/acme/%s.git" % (
            value,
            g.pick(["infra", "api", "site"]),
        )
    elif value.startswith(("glpat-", "gldt-")):
        url = "https://oauth2:%s@gitlab.com/acme/%s.git" % (value, g.pick(["infra", "api", "site"]))
    elif value.startswith("AIza"):
        url = "https://maps.googleapis.com/maps/api/geocode/json?address=Berlin&key=" + value
    else:
        url = "https://api.example.com/v1/%s?%s=%s" % (
            g.pick(["export", "events", "items"]),
            g.pick(["access_token", "api_key", "token", "key"]),
            value,
        )
    form = g.pick(["git", "shell", "yaml", "md"])
    if form == "git" and "@github.com" in url or "@gitlab.com" in url:
        lines = [
            '[remote "origin"]',
            "\turl = " + url,
            "\tfetch = +refs/heads/*:refs/remotes/origin/*",
        ]
        path = g.pick(["deploy/gitconfig", "ci/git-config"])
    elif form == "shell":
        lines = [
            "set -e",
            "git clone %s build" % url if "git" in url[-4:] else 'curl -fsS "%s" > out.json' % url,
        ]
        path = g.pick(["scripts/fetch.sh", "ci/bootstrap.sh"])
    elif form == "yaml":
        lines = ["sources:", "  - name: upstream", "    url: %s" % url, "    interval: 1h"]
        path = g.pick(["config/sources.yml", "deploy/mirror.yaml"])
    else:
        lines = ["To fetch the data:", "", "    " + url, ""]
        path = g.pick(["docs/data.md", "NOTES.md"])
    return finish(g, Doc(path, lines), [(value, what)])


# Messages that name what the value is given to (the rest show it alone or in prose).
NAMED_COMMIT_TEMPLATES = [
    "Add deploy credentials for CI\n\nTemporary until the vault integration lands:\n{name}={value}\n",
    "Fix staging config\n\nSet {name}={value} in the pipeline settings.\n",
    "WIP: debugging auth\n\ncurl -H 'Authorization: Bearer {value}' https://api.example.com/v1/me\n",
    "Configure upload step ({name}: {value})\n",
    "Update secrets\r\n\r\n{name}={value}\r\n",
]
COMMIT_TEMPLATES = [
    "Add deploy credentials for CI\n\nTemporary until the vault integration lands:\n{name}={value}\n",
    "Fix staging config\n\nSet {name}={value} in the pipeline settings.\n",
    "WIP: debugging auth\n\ncurl -H 'Authorization: Bearer {value}' https://api.example.com/v1/me\n",
    "Revert token rotation\n\nThe old value {value} still works for the mirror job.\n",
    "Use the new {name}\n\n{value}\n\nRotate after the release.\n",
    "Configure upload step ({name}: {value})\n",
    'ci: hard-code {name} for now\n\nSee #{num}. Value: "{value}"\n\nSigned-off-by: Dev Ops <ops@example.com>\n',
    "Update secrets\r\n\r\n{name}={value}\r\n",
]


def commit_record(g, secrets, words, named=False):
    value = secrets[0][0]
    t = g.pick(NAMED_COMMIT_TEMPLATES if named else COMMIT_TEMPLATES)
    text = t.format(name=name_as(words, "UPPER"), value=value, num=g.int(10, 999))
    for v, w in secrets[1:]:
        text += "%s=%s\n" % ({"AWS secret key": "AWS_SECRET_ACCESS_KEY"}.get(w, "ALSO"), v)
    return "commit_message", "", text, [{"value": v, "what": w} for v, w in secrets]


def json_escaped_record(g, value, what, words):
    """The value inside a JSON string that itself holds lines or quotes (escaped)."""
    name = name_as(words, "UPPER")
    form = g.pick(["envblob", "script", "nested"])
    if form == "envblob":
        inner = "NODE_ENV=production\\n%s=%s\\nPORT=8080" % (name, value)
        lines = ["{", '  "name": "api",', '  "env": "%s",' % inner, '  "region": "eu-west-1"', "}"]
        path = g.pick(["deploy/task.json", "infra/container.json", "app.json"])
    elif form == "script":
        inner = 'curl -H \\"Authorization: Bearer %s\\" https://api.example.com/v1/sync' % value
        lines = [
            "{",
            '  "scripts": {',
            '    "sync": "%s",' % inner,
            '    "build": "tsc -p ."',
            "  }",
            "}",
        ]
        path = "package.json"
    else:
        inner = '{\\"%s\\":\\"%s\\",\\"region\\":\\"eu-west-1\\"}' % (
            name_as(words, "camel"),
            value,
        )
        lines = ["{", '  "Parameters": {', '    "Config": "%s"' % inner, "  }", "}"]
        path = g.pick(["cloudformation/params.json", "deploy/stack-params.json"])
    return finish(
        g, Doc(path, lines), [(value, what)], mode=g.pick(["file", "file", "diff", "crlf"])
    )


def prose_token_record(g, value, what, prose):
    t = g.pick(
        prose
        or [
            "The {what} for the staging account is {value} — ask Sam before rotating it.",
            "Use `{value}` when the CLI asks for a token.",
            "- {what}: {value}",
            "Note to self: {value} (expires in March)",
            "Zugangsdaten für Staging: {value}",
            "Le jeton de l'API : {value}",
        ]
    )
    lines = [
        "# " + g.pick(["Ops notes", "Handover", "Staging", "Onboarding"]),
        "",
        g.pick(["Things to know before the migration.", "Accounts we use:", "Updated last week."]),
        "",
        t.format(what=what, value=value),
        "",
    ]
    path = g.pick(["docs/ops-notes.md", "HANDOVER.md", "notes/staging.txt", "wiki/onboarding.md"])
    return finish(g, Doc(path, lines), [(value, what)])


def code_call_record(g, value, what):
    form = g.pick(["py", "js", "go", "rb"])
    if form == "py":
        lines = ["from client import Client", "", 'client = Client("%s")' % value, "client.sync()"]
        path = "scripts/sync.py"
    elif form == "js":
        lines = ["const api = require('./api');", "", "api.init('%s', { retries: 3 });" % value]
        path = "src/index.js"
    elif form == "go":
        lines = [
            "func main() {",
            '\tc := api.New("%s")' % value,
            "\tc.Run(context.Background())",
            "}",
        ]
        path = "cmd/sync/main.go"
    else:
        lines = ["require 'api'", "", "API.connect('%s')" % value]
        path = "bin/sync"
    return finish(g, Doc(path, lines), [(value, what)])


# ---------------------------------------------------------------------------------------
# Positive categories.


def simple(gen, names_key, **kw):
    def make(g):
        v, what = gen(g)
        return positive_token_record(g, v, what, NAMES[names_key], **kw)

    return make


def p_aws(g):
    key_id, secret = v_aws_id(g), v_aws_secret(g)
    pair = [(key_id, "AWS access key"), (secret, "AWS secret key")]
    form = g.pick(
        [
            "env",
            "ini",
            "python",
            "js",
            "java",
            "terraform",
            "ghactions",
            "yaml",
            "json",
            "shell",
            "commit",
            "id_only",
            "secret_only",
            "docker",
            "properties",
        ]
    )
    if form == "env":
        lines = fill(g, ENV_FILL, 1, 4) + [
            "AWS_ACCESS_KEY_ID=" + key_id,
            "AWS_SECRET_ACCESS_KEY=" + secret,
        ]
        doc = Doc(g.pick([".env", "deploy/prod.env", "docker/worker.env"]), lines, flat=True)
    elif form == "ini":
        lines = [
            "[%s]" % g.pick(["default", "profile prod", "ci"]),
            "aws_access_key_id = " + key_id,
            "aws_secret_access_key = " + secret,
            "region = eu-west-1",
        ]
        doc = Doc(g.pick(["deploy/aws.cfg", "config/boto.ini", "ci/aws-config"]), lines)
    elif form == "python":
        lines = [
            "import boto3",
            "",
            "s3 = boto3.client(",
            '    "s3",',
            '    aws_access_key_id="%s",' % key_id,
            '    aws_secret_access_key="%s",' % secret,
            '    region_name="eu-west-1",',
            ")",
        ]
        doc = Doc(g.pick(["scripts/upload.py", "app/storage.py"]), lines)
    elif form == "js":
        lines = [
            "const { S3Client } = require('@aws-sdk/client-s3');",
            "",
            "const s3 = new S3Client({",
            "  region: 'us-east-1',",
            "  credentials: {",
            "    accessKeyId: '%s'," % key_id,
            "    secretAccessKey: '%s'," % secret,
            "  },",
            "});",
        ]
        doc = Doc(g.pick(["src/storage.js", "lambda/index.js"]), lines)
    elif form == "java":
        lines = [
            "AWSCredentials creds = new BasicAWSCredentials(",
            '    "%s",' % key_id,
            '    "%s");' % secret,
            "AmazonS3 s3 = AmazonS3ClientBuilder.standard()",
            "    .withCredentials(new AWSStaticCredentialsProvider(creds)).build();",
        ]
        doc = Doc("src/main/java/com/acme/Storage.java", lines)
    elif form == "terraform":
        lines = [
            'provider "aws" {',
            '  region     = "eu-west-1"',
            '  access_key = "%s"' % key_id,
            '  secret_key = "%s"' % secret,
            "}",
        ]
        doc = Doc(g.pick(["main.tf", "infra/providers.tf"]), lines)
    elif form == "ghactions":
        lines = [
            "jobs:",
            "  upload:",
            "    runs-on: ubuntu-latest",
            "    env:",
            "      AWS_ACCESS_KEY_ID: " + key_id,
            "      AWS_SECRET_ACCESS_KEY: " + secret,
            "    steps:",
            "      - run: aws s3 sync dist/ s3://acme-site",
        ]
        doc = Doc(".github/workflows/site.yml", lines)
    elif form == "yaml":
        lines = [
            "storage:",
            "  provider: s3",
            "  bucket: acme-uploads",
            "  access_key_id: " + key_id,
            "  secret_access_key: " + g.pick(["%s", '"%s"']) % secret,
        ]
        doc = Doc(g.pick(["config/storage.yml", "config/production.yml"]), lines)
    elif form == "json":
        lines = [
            "{",
            '  "region": "eu-west-1",',
            '  "accessKeyId": "%s",' % key_id,
            '  "secretAccessKey": "%s"' % secret,
            "}",
        ]
        doc = Doc(g.pick(["config/aws.json", "deploy/credentials.prod.json"]), lines)
    elif form == "shell":
        lines = [
            "#!/bin/sh",
            "export AWS_ACCESS_KEY_ID=%s" % key_id,
            "export AWS_SECRET_ACCESS_KEY='%s'" % secret,
            "aws s3 cp build.tar.gz s3://acme-artifacts/",
        ]
        doc = Doc(g.pick(["scripts/publish.sh", "ci/upload.sh"]), lines)
    elif form == "docker":
        lines = [
            "FROM amazon/aws-cli:2.15.0",
            "ENV AWS_ACCESS_KEY_ID=%s" % key_id,
            "ENV AWS_SECRET_ACCESS_KEY=%s" % secret,
            'ENTRYPOINT ["aws"]',
        ]
        doc = Doc("docker/awscli.Dockerfile", lines)
    elif form == "properties":
        lines = [
            "cloud.aws.region.static=eu-west-1",
            "cloud.aws.credentials.access-key=" + key_id,
            "cloud.aws.credentials.secret-key=" + secret,
        ]
        doc = Doc("src/main/resources/application.properties", lines, flat=True)
    elif form == "commit":
        return commit_record(g, pair, ["aws", "access", "key", "id"])
    elif form == "id_only":
        lines = [
            "2024-03-02T10:11:12Z ERROR upload failed: AccessDenied for key %s on s3://acme-logs"
            % key_id,
            "2024-03-02T10:11:13Z INFO retrying in 5s",
        ]
        doc = Doc(g.pick(["logs/upload.log", "docs/incident-42.md"]), lines)
        return finish(g, doc, pair[:1])
    else:
        words = g.pick(
            [
                ["aws", "secret", "access", "key"],
                ["aws", "secret", "key"],
                ["secret", "access", "key"],
            ]
        )
        return finish(
            g,
            render(g, g.pick(["yaml", "env", "json", "python", "toml"]), words, secret),
            [pair[1]],
        )
    return finish(g, doc, pair, name_hint="AWS_SECRET_ACCESS_KEY")


def p_slack(g):
    v, what = v_slack(g)
    if what == "Slack webhook":
        url = slack_webhook_url(g, v)
        return url_setting_record(g, url, v, what, NAMES["slack-webhook"])
    return positive_token_record(g, v, what, NAMES["slack"])


def p_discord(g):
    v, what = v_discord(g)
    if what == "Discord webhook":
        return url_setting_record(g, discord_webhook_url(g, v), v, what, NAMES["discord-webhook"])
    return positive_token_record(g, v, what, NAMES["discord"])


def url_setting_record(g, url, value, what, names):
    fmt = g.pick(
        [
            "env",
            "yaml",
            "json",
            "python",
            "js",
            "ghactions",
            "k8s",
            "toml",
            "shell",
            "markdown",
            "commit",
        ]
    )
    words = g.pick(names)
    if fmt == "commit":
        text = "Send deploy alerts to #ops\n\nWebhook: %s\n" % url
        return "commit_message", "", text, [{"value": value, "what": what}]
    if fmt == "shell":
        doc = Doc(
            "scripts/notify.sh",
            [
                "#!/bin/sh",
                "curl -X POST -H 'Content-type: application/json' \\",
                '  --data \'{"text":"deployed"}\' \\',
                "  " + url,
            ],
        )
    else:
        doc = render(g, fmt, words, url) or render(g, "yaml", words, url)
    return finish(g, doc, [(value, what)])


def p_twilio(g):
    v, what = v_twilio(g)
    names = {
        "Twilio API key": [["twilio", "api", "key"], ["twilio", "key", "sid"]],
        "Twilio auth token": [["twilio", "auth", "token"]],
        "Twilio API secret": [["twilio", "api", "secret"]],
    }[what]
    return positive_token_record(g, v, what, names, shaped=(what == "Twilio API key"))


def p_datadog(g):
    v, what = v_datadog(g)
    names = (
        [["dd", "api", "key"], ["datadog", "api", "key"]]
        if "API" in what
        else [["dd", "app", "key"], ["datadog", "app", "key"], ["dd", "application", "key"]]
    )
    return positive_token_record(g, v, what, names, shaped=False)


def p_heroku(g):
    v, what = v_heroku(g)
    return positive_token_record(g, v, what, NAMES["heroku"], shaped=v.startswith("HRKU"))


def p_mailgun(g):
    v, what = v_mailgun(g)
    return positive_token_record(
        g,
        v,
        what,
        NAMES["mailgun"],
        shaped=v.startswith("key-"),
    )


def p_azure(g):
    v, what = v_azure(g)
    if what == "Azure storage key":
        acct = g.pick(["acmeprod", "shopassets", "logsarchive01", "mlartifacts"])
        if g.chance(0.7):
            conn = (
                "DefaultEndpointsProtocol=https;AccountName=%s;AccountKey=%s;EndpointSuffix=core.windows.net"
                % (acct, v)
            )
            return setting_with_value_inside(
                g,
                conn,
                v,
                what,
                [
                    ["azure", "storage", "connection", "string"],
                    ["azure", "web", "jobs", "storage"],
                    ["storage", "connection"],
                ],
            )
        return positive_token_record(
            g,
            v,
            what,
            [
                ["azure", "storage", "key"],
                ["account", "key"],
                ["azure", "storage", "access", "key"],
            ],
            shaped=False,
        )
    if what == "Azure Service Bus key":
        conn = (
            "Endpoint=sb://%s.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey;"
            "SharedAccessKey=%s" % (g.pick(["acme-bus", "orders-prod"]), v)
        )
        return setting_with_value_inside(
            g, conn, v, what, [["service", "bus", "connection"], ["azure", "service", "bus"]]
        )
    if what == "Azure DevOps token" and v.islower():
        return positive_token_record(
            g,
            v,
            what,
            [["azure", "devops", "pat"], ["ado", "pat"], ["system", "access", "token"]],
            shaped=False,
        )
    if g.chance(0.15):  # a SAS URL's signature
        sig = g.b64(32)
        enc = sig.replace("+", "%2B").replace("/", "%2F").replace("=", "%3D")
        url = (
            "https://%s.blob.core.windows.net/%s?sv=2022-11-02&ss=b&srt=sco&sp=rl&se=2026-01-01T00:00:00Z"
            "&st=2025-01-01T00:00:00Z&spr=https&sig=%s"
            % (g.pick(["acmeprod", "backups"]), g.pick(["exports", "media"]), enc)
        )
        return url_setting_record(
            g, url, enc, "Azure SAS signature", [["blob", "sas", "url"], ["export", "url"]]
        )
    names = {
        "Azure client secret": [
            ["azure", "client", "secret"],
            ["client", "secret"],
            ["aad", "client", "secret"],
        ],
        "Azure DevOps token": [
            ["azure", "devops", "pat"],
            ["ado", "token"],
            ["azure", "devops", "ext", "pat"],
        ],
    }
    return positive_token_record(g, v, what, names.get(what, NAMES["azure"]))


def setting_with_value_inside(g, whole, value, what, names):
    fmt = g.pick(
        ["env", "json", "json", "yaml", "xml", "csharp", "python", "terraform", "k8s", "commit"]
    )
    words = g.pick(names)
    if fmt == "commit":
        return (
            "commit_message",
            "",
            "Point the worker at prod storage\n\n%s\n" % whole,
            [{"value": value, "what": what}],
        )
    if fmt == "json" and g.chance(0.5):
        lines = [
            "{",
            '  "ConnectionStrings": {',
            '    "%s": "%s"' % (name_as(words, "pascal"), whole),
            "  },",
            '  "Logging": { "LogLevel": { "Default": "Information" } }',
            "}",
        ]
        doc = Doc(
            g.pick(
                ["appsettings.json", "src/Api/appsettings.Production.json", "local.settings.json"]
            ),
            lines,
        )
    else:
        doc = render(g, fmt, words, whole) or render(g, "json", words, whole)
    return finish(g, doc, [(value, what)])


def gcp_sa_json_lines(g, key_escaped, indent="  "):
    project = g.pick(["acme-prod", "shop-analytics-4411", "ml-pipeline-dev", "billing-382910"])
    sa = g.pick(["ci-deployer", "terraform", "bq-reader", "uploader"])
    fields = [
        ("type", "service_account"),
        ("project_id", project),
        ("private_key_id", g.hex(40)),
        ("private_key", key_escaped),
        ("client_email", "%s@%s.iam.gserviceaccount.com" % (sa, project)),
        ("client_id", "".join(g.s(DIGITS, 21))),
        ("auth_uri", "https://accounts.google.com/o/oauth2/auth"),
        ("token_uri", "https://oauth2.googleapis.com/token"),
        ("auth_provider_x509_cert_url", "https://www.googleapis.com/oauth2/v1/certs"),
        (
            "client_x509_cert_url",
            "https://www.googleapis.com/robot/v1/metadata/x509/%s%%40%s.iam.gserviceaccount.com"
            % (sa, project),
        ),
        ("universe_domain", "googleapis.com"),
    ]
    lines = ["{"]
    for i, (k, v) in enumerate(fields):
        lines.append('%s"%s": "%s"%s' % (indent, k, v, "," if i < len(fields) - 1 else ""))
    lines.append("}")
    return lines


def p_gcp(g):
    key = private_key_lines(g, "PRIVATE KEY")
    escaped = "\\n".join(key) + "\\n"
    first, last = key_body(key)
    value = "\\n".join(key[first : last + 1])
    what = "private key"
    form = g.pick(["file", "file", "file", "env", "yaml", "terraform", "compact", "diff"])
    if form in ("file", "diff"):
        doc = Doc(
            g.pick(
                [
                    "deploy/gcp/ci-key.json",
                    "terraform/files/deployer.json",
                    "config/gcp-prod.json",
                    "secrets/bq-reader.json",
                    "keys/uploader-prod.json",
                ]
            ),
            gcp_sa_json_lines(g, escaped),
        )
        return finish(
            g,
            doc,
            [(value, what)],
            mode="diff" if form == "diff" else g.pick(["file", "file", "crlf"]),
        )
    compact = "".join(ln.strip() for ln in gcp_sa_json_lines(g, escaped, indent=""))
    compact = compact.replace('",', '", ').replace("{", "{", 1)
    if form == "env":
        doc = Doc(
            g.pick([".env", "deploy/ci.env"]),
            [
                "GOOGLE_CLOUD_PROJECT=acme-prod",
                "GOOGLE_CREDENTIALS='%s'" % compact,
                "REGION=europe-west1",
            ],
            flat=True,
        )
    elif form == "yaml":
        doc = Doc(
            g.pick(["k8s/secret.yaml", "config/gcp.yml"]),
            [
                "apiVersion: v1",
                "kind: Secret",
                "metadata:",
                "  name: gcp-sa",
                "type: Opaque",
                "stringData:",
                "  key.json: '%s'" % compact,
            ],
        )
    elif form == "terraform":
        doc = Doc(
            "infra/providers.tf",
            ['provider "google" {', '  project     = "acme-prod"', "  credentials = <<EOF"]
            + gcp_sa_json_lines(g, escaped)
            + ["EOF", "}"],
        )
    else:
        doc = Doc(
            "config/settings.json",
            ["{", '  "gcp": %s,' % compact, '  "bucket": "acme-exports"', "}"],
        )
    return finish(g, doc, [(value, what)])


def pem_record(g):
    key = private_key_lines(g)
    form = g.pick(
        [
            "md",
            "yaml_block",
            "terraform",
            "go",
            "shell",
            "k8s",
            "json",
            "python",
            "txt",
            "commit",
            "ansible",
        ]
    )
    if form == "md":
        lines = (
            ["## Deploy key", "", "Paste this into the server's key file:", "", "```"]
            + key
            + ["```", ""]
        )
        path = g.pick(["docs/deploy.md", "README.md", "docs/ops/ssh.md"])
        vlines = key
    elif form == "yaml_block":
        ind = "    "
        lines = (
            ["tls:", "  enabled: true", "  cert_file: /etc/ssl/certs/api.crt", "  key: |"]
            + [ind + k for k in key]
            + ['  min_version: "1.2"']
        )
        vlines = [key[0]] + [ind + k for k in key[1:]]
        path = g.pick(["config/tls.yml", "config/server.yaml"])
    elif form == "ansible":
        ind = "  "
        lines = (
            ["---", "deploy_user: app", "deploy_ssh_key: |"]
            + [ind + k for k in key]
            + ["deploy_port: 22"]
        )
        vlines = [key[0]] + [ind + k for k in key[1:]]
        path = g.pick(["ansible/group_vars/all.yml", "ansible/roles/deploy/vars/main.yml"])
    elif form == "terraform":
        lines = (
            ['resource "tls_locally_signed_cert" "api" {', "  ca_private_key_pem = <<EOT"]
            + key
            + ["EOT", '  ca_key_algorithm = "RSA"', "}"]
        )
        vlines = key
        path = "infra/tls.tf"
    elif form == "go":
        lines = ["package testdata", "", "const signingKey = `"] + key + ["`"]
        vlines = key
        path = g.pick(["internal/auth/keys.go", "pkg/jwt/key.go"])
    elif form == "shell":
        lines = (
            ["#!/bin/sh", "mkdir -p ~/.ssh", "cat > ~/.ssh/deploy_key <<'EOF'"]
            + key
            + ["EOF", "chmod 600 ~/.ssh/deploy_key"]
        )
        vlines = key
        path = g.pick(["scripts/bootstrap.sh", "ci/setup-ssh.sh"])
    elif form == "k8s":
        ind = "    "
        lines = [
            "apiVersion: v1",
            "kind: Secret",
            "metadata:",
            "  name: api-tls",
            "type: kubernetes.io/tls",
            "stringData:",
            "  tls.key: |",
        ] + [ind + k for k in key]
        vlines = [key[0]] + [ind + k for k in key[1:]]
        path = g.pick(["k8s/tls-secret.yaml", "deploy/secrets.yaml"])
    elif form == "json":
        esc = "\\n".join(key) + "\\n"
        first, last = key_body(key)
        lines = [
            "{",
            '  "issuer": "https://auth.example.com",',
            '  "signingKey": "%s",' % esc,
            '  "ttl": 3600',
            "}",
        ]
        return finish(
            g,
            Doc(g.pick(["config/auth.json", "config/jwt.json"]), lines),
            [("\\n".join(key[first : last + 1]), "private key")],
        )
    elif form == "python":
        lines = (
            ['PRIVATE_KEY = """']
            + key
            + ['"""', "", "def sign(data):", "    return _sign(PRIVATE_KEY, data)"]
        )
        vlines = key
        path = g.pick(["app/signing.py", "tests/test_webhooks.py"])
    elif form == "commit":
        text = (
            "\n".join(["Add the staging deploy key", ""] + key + ["", "It is only for staging."])
            + "\n"
        )
        first, last = key_body(key)
        value = "\n".join(key[first : last + 1])
        return "commit_message", "", text, [{"value": value, "what": "private key"}]
    else:
        lines = ["staging bastion key (do not share):", ""] + key + [""]
        vlines = key
        path = g.pick(["notes/bastion.txt", "docs/keys.txt"])
    first, last = key_body(key)
    value = "\n".join([vlines[first].lstrip(" ")] + vlines[first + 1 : last + 1])
    return finish(
        g,
        Doc(path, lines),
        [(value, "private key")],
        mode=g.pick(["file"] * 6 + ["crlf"] * 2 + ["diff"] * 4),
    )


def p_key_b64(g):
    key = private_key_lines(
        g, g.pick(["RSA PRIVATE KEY", "EC PRIVATE KEY", "PRIVATE KEY", "OPENSSH PRIVATE KEY"])
    )
    pem_b64 = base64.b64encode(("\n".join(key) + "\n").encode()).decode()
    form = g.pick(["kubeconfig", "kubeconfig", "tls_secret", "env", "helm", "json", "der_line"])
    if form == "kubeconfig":
        cert = base64.b64encode(cert_pem_text(g).encode()).decode()
        ca = base64.b64encode(cert_pem_text(g).encode()).decode()
        lines = [
            "apiVersion: v1",
            "clusters:",
            "- cluster:",
            "    certificate-authority-data: " + ca,
            "    server: https://10.0.%d.%d:6443" % (g.int(0, 255), g.int(1, 254)),
            "  name: prod",
            "contexts:",
            "- context:",
            "    cluster: prod",
            "    user: admin",
            "  name: prod",
            "current-context: prod",
            "kind: Config",
            "users:",
            "- name: admin",
            "  user:",
            "    client-certificate-data: " + cert,
            "    client-key-data: " + pem_b64,
        ]
        doc = Doc(
            g.pick(
                ["deploy/kubeconfig-prod.yaml", "ci/kube/admin.conf", "infra/k8s/admin-kubeconfig"]
            ),
            lines,
        )
        value = pem_b64
    elif form == "tls_secret":
        cert = base64.b64encode(cert_pem_text(g).encode()).decode()
        lines = [
            "apiVersion: v1",
            "kind: Secret",
            "metadata:",
            "  name: ingress-tls",
            "type: kubernetes.io/tls",
            "data:",
            "  tls.crt: " + cert,
            "  tls.key: " + pem_b64,
        ]
        doc = Doc(g.pick(["k8s/ingress-tls.yaml", "manifests/tls.yaml"]), lines)
        value = pem_b64
    elif form == "der_line":
        der_b64 = "".join(k for k in key[1:-1] if ":" not in k)  # no PEM headers
        name = g.pick(["private_key", "signing_key", "jwt_private_key", "privateKey"])
        doc = render(
            g,
            g.pick(["yaml", "env", "json", "properties", "toml"]),
            name.replace("privateKey", "private_key").split("_"),
            der_b64,
        )
        value = der_b64
    else:
        words = g.pick(
            [
                ["ssh", "private", "key", "b64"],
                ["deploy", "key"],
                ["tls", "key"],
                ["client", "key", "data"],
            ]
        )
        doc = render(g, {"env": "env", "helm": "helm", "json": "json"}[form], words, pem_b64)
        value = pem_b64
    return finish(g, doc, [(value, "private key")])


def p_key_material(g):
    key = private_key_lines(g, g.pick(["RSA PRIVATE KEY", "PRIVATE KEY"]))
    body = [k for k in key[1:-1] if k and ":" not in k]
    form = g.pick(["diff", "diff", "window", "window", "code"])
    if form == "diff":
        # A hunk that begins inside the key's block: its start is not in the hunk.
        path = g.pick(["deploy/keys.yml", "config/tls.yml", "docs/ssh.md", "ansible/files/key.txt"])
        start = g.int(5, len(body) - 8)
        ctx = body[start : start + g.int(2, 4)]
        old = body[start + len(ctx) : start + len(ctx) + g.int(1, 3)]
        new = [g.b64(48) for _ in old]
        tail = body[start + len(ctx) + len(old) :][: g.int(1, 3)]
        lines = diff_header(g, path)
        n_old = len(ctx) + len(old) + len(tail) + 1
        n_new = len(ctx) + len(new) + len(tail) + 1
        lines.append("@@ -%d,%d +%d,%d @@" % (start + 10, n_old, start + 10, n_new))
        hunk = (
            [" " + c for c in ctx]
            + ["-" + o for o in old]
            + ["+" + n for n in new]
            + [" " + t for t in tail]
        )
        lines += hunk + [" " + key[-1]]
        text = "\n".join(lines) + "\n"
        value = "\n".join(hunk)[1:]
        return "diff", path, text, [{"value": value, "what": "private key"}]
    if form == "window":
        # read_file's window starting inside the block (a line range).
        start = g.int(3, len(body) - 6)
        lines = body[start:] + [
            key[-1],
            "",
            g.pick(["# rotate yearly", "server_name api.example.com;", ""]),
        ]
        path = g.pick(["deploy/keys/ci.txt", "docs/bastion.md", "config/legacy-key.txt"])
        value = "\n".join(body[start:])
        return finish(
            g, Doc(path, lines), [(value, "private key")], mode=g.pick(["file", "file", "crlf"])
        )
    # Concatenated string literals of DER base64, no BEGIN/END lines.
    der_lines = [k for k in key[1:-1] if k and ":" not in k]
    lines = (
        ['var testKey = "" +']
        + ['\t"%s" +' % k for k in der_lines[:-1]]
        + ['\t"%s"' % der_lines[-1]]
    )
    path = g.pick(["internal/auth/testkey.go", "pkg/sign/key_data.go"])
    return finish(g, Doc(path, lines), [('" +\n\t"'.join(der_lines), "private key")])


# Generic secrets: values of settings named for a secret.

SECRET_NAMES = [
    ["password"],
    ["passwd"],
    ["pwd"],
    ["db", "password"],
    ["database", "password"],
    ["mysql", "root", "password"],
    ["postgres", "password"],
    ["redis", "password"],
    ["smtp", "password"],
    ["admin", "password"],
    ["ldap", "bind", "password"],
    ["keystore", "password"],
    ["secret"],
    ["client", "secret"],
    ["secret", "key"],
    ["app", "secret"],
    ["session", "secret"],
    ["jwt", "secret"],
    ["webhook", "secret"],
    ["secret", "key", "base"],
    ["token"],
    ["auth", "token"],
    ["access", "token"],
    ["refresh", "token"],
    ["api", "token"],
    ["api", "key"],
    ["apikey"],
    ["access", "key"],
    ["secret", "access", "key"],
    ["private", "key"],
    ["encryption", "key"],
    ["signing", "key"],
    ["master", "key"],
    ["app", "key"],
    ["auth"],
    ["passphrase"],
    ["consumer", "secret"],
    ["cookie", "secret"],
    ["rabbitmq", "password"],
]
WORDS = [
    "Sunflower",
    "Falcon",
    "Marble",
    "Orbit",
    "Pepper",
    "Glacier",
    "Harbor",
    "Quartz",
    "Velvet",
    "Maple",
    "Thunder",
    "Copper",
    "Lantern",
    "Meadow",
    "Cobalt",
    "Saffron",
    "Tundra",
    "Juniper",
]


def v_secret_value(g):
    k = g.pick(
        [
            "human",
            "human",
            "random",
            "random",
            "random",
            "hex",
            "b64",
            "django",
            "rails",
            "laravel",
            "phrase",
            "mixed_sym",
        ]
    )
    if k == "human":
        return (
            g.pick(WORDS)
            + g.pick(["", "!", "#", "_", "-", "@", "."])
            + str(g.int(10, 9999))
            + g.pick(["", "!", "?", "$"])
        )
    if k == "random":
        return g.mixed(ALNUM, g.int(12, 40))
    if k == "mixed_sym":
        return g.pick(ALNUM) + g.mixed(ALNUM + "!@^-_.+=~", g.int(11, 30))
    if k == "hex":
        return g.hex(g.pick([32, 40, 64]))
    if k == "b64":
        return g.b64(g.pick([24, 32, 48]))
    if k == "django":
        return (
            g.pick(["", "django-insecure-"])
            + g.pick(LOWER)
            + g.s(LOWER + DIGITS + "!@%^&*(-_=+)", 49)
        )
    if k == "rails":
        return g.hex(128)
    if k == "laravel":
        return "base64:" + g.b64(32)
    return "-".join(w.lower() for w in g.sample(WORDS, 4)) + str(g.int(1, 99))


def setting_record(g, fmts):
    value = v_secret_value(g)
    words = g.pick(SECRET_NAMES)
    what = (
        "password"
        if any(w in ("password", "passwd", "pwd", "passphrase") for w in words)
        else "secret"
    )
    fmt = g.pick(fmts)
    doc = render(g, fmt, words, value)
    tries = 0
    while doc is None and tries < 10:
        value = v_secret_value(g)
        doc = render(g, fmt, words, value)
        tries += 1
    return finish(g, doc, [(value, what)], name_hint=name_as(words, "UPPER"))


def p_setting_json(g):
    if g.chance(0.3):
        # Escapes in a JSON string: a quote or a backslash inside the value, or "\/".
        core = g.pick(WORDS) + g.pick(['\\"', "\\\\", "\\/"]) + g.mixed(ALNUM, g.int(6, 14))
        words = g.pick(SECRET_NAMES)
        lines = [
            "{",
            '  "db": {',
            '    "user": "app",',
            '    "%s": "%s",' % (name_as(words, "camel"), core),
            '    "host": "db.internal"',
            "  }",
            "}",
        ]
        return finish(
            g, Doc(g.pick(["config/prod.json", "appsettings.json"]), lines), [(core, "password")]
        )
    if g.chance(0.2):
        v = v_secret_value(g)
        if not any(c in v for c in '"\\'):
            return json_escaped_record(g, v, "secret", g.pick(SECRET_NAMES))
    return setting_record(g, ["json"])


def p_setting_shell(g):
    if g.chance(0.25):
        user = g.pick(["admin", "deploy", "ci", "jenkins"])
        pw = g.pick(WORDS) + str(g.int(100, 9999)) + g.pick(["!", "", "#"])
        form = g.pick(["curl", "basic", "docker"])
        if form == "curl":
            lines = [
                "#!/bin/sh",
                "curl -u %s:%s https://nexus.example.com/service/rest/v1/status" % (user, pw),
            ]
            return finish(g, Doc("scripts/check-nexus.sh", lines), [(pw, "password")])
        if form == "docker":
            lines = [
                "#!/bin/sh",
                "docker login -u %s -p %s registry.example.com" % (user, pw),
                "docker push registry.example.com/api:1.2.0",
            ]
            return finish(g, Doc("ci/push.sh", lines), [(pw, "password")])
        basic = base64.b64encode(("%s:%s" % (user, pw)).encode()).decode()
        lines = ["GET https://api.example.com/admin/stats", "Authorization: Basic " + basic, ""]
        return finish(g, Doc("requests/admin.http", lines), [(basic, "password")])
    return setting_record(g, ["shell", "shell", "dockerfile", "dockerfile", "markdown"])


URL_SCHEMES = [
    ("postgres://{u}:{p}@{h}:5432/{d}", "db.internal"),
    ("postgresql://{u}:{p}@{h}/{d}?sslmode=require", "pg.prod.example.com"),
    ("mysql://{u}:{p}@{h}:3306/{d}", "mysql-1"),
    ("mongodb+srv://{u}:{p}@{h}/{d}?retryWrites=true&w=majority", "cluster0.x7k2m.mongodb.net"),
    ("mongodb://{u}:{p}@{h}:27017/{d}?authSource=admin", "mongo"),
    ("redis://:{p}@{h}:6379/0", "cache.internal"),
    ("rediss://default:{p}@{h}:6380", "redis-12345.c1.eu-west-1.ec2.cloud.redislabs.com"),
    ("amqp://{u}:{p}@{h}:5672/{d}", "rabbitmq"),
    ("https://{u}:{p}@{h}/repository/npm/", "nexus.example.com"),
    ("ftp://{u}:{p}@{h}/uploads", "ftp.example.org"),
    ("smtp://{u}:{p}@{h}:587", "smtp.mailgun.org"),
    ("redis://{u}:{p}@{h}:6379", "redis"),
    ("git+https://{u}:{p}@{h}/acme/private-lib.git", "git.example.com"),
    ("mssql://{u}:{p}@{h}:1433/{d}", "sql01.corp.local"),
    ("nats://{u}:{p}@{h}:4222", "nats"),
]


def v_url_password(g):
    k = g.pick(["alnum", "alnum", "human", "enc", "hex"])
    if k == "alnum":
        return g.mixed(ALNUM, g.int(12, 32))
    if k == "human":
        return g.pick(WORDS) + str(g.int(10, 9999)) + g.pick(["", "-", "_", "."])
    if k == "enc":
        return g.pick(WORDS) + g.pick(["%40", "%23", "%21", "%2F"]) + g.mixed(ALNUM, g.int(4, 10))
    return g.hex(32)


def p_url_password(g):
    tpl, host = g.pick(URL_SCHEMES)
    pw = v_url_password(g)
    url = tpl.format(
        u=g.pick(["shop", "app", "admin", "svc_orders", "root", "deploy"]),
        p=pw,
        h=host,
        d=g.pick(["shop", "orders", "app", "prod"]),
    )
    form = g.pick(["setting"] * 5 + ["code", "json_slash", "commit", "jdbc", "md"])
    if form == "setting":
        words = g.pick(
            [
                ["database", "url"],
                ["db", "url"],
                ["redis", "url"],
                ["broker", "url"],
                ["mongo", "uri"],
                ["connection", "string"],
                ["registry"],
                ["sqlalchemy", "url"],
                ["dsn"],
            ]
        )
        doc = render(
            g,
            g.pick(
                [
                    "env",
                    "env",
                    "yaml",
                    "json",
                    "toml",
                    "ini",
                    "compose",
                    "k8s",
                    "properties",
                    "helm",
                    "ghactions",
                    "dockerfile",
                ]
            ),
            words,
            url,
        )
        return finish(g, doc, [(pw, "password")], name_hint=name_as(words, "UPPER"))
    if form == "code":
        lang = g.pick(["py", "js", "go"])
        if lang == "py":
            lines = [
                "from sqlalchemy import create_engine",
                "",
                'engine = create_engine("%s")' % url,
            ]
            path = "app/db.py"
        elif lang == "js":
            lines = [
                "const { Pool } = require('pg');",
                "const pool = new Pool({ connectionString: '%s' });" % url,
            ]
            path = "src/db.js"
        else:
            lines = ["func open() (*sql.DB, error) {", '\treturn sql.Open("pgx", "%s")' % url, "}"]
            path = "internal/db/db.go"
        return finish(g, Doc(path, lines), [(pw, "password")])
    if form == "json_slash":
        esc = url.replace("/", "\\/")
        lines = ["{", '  "db": "%s",' % esc, '  "pool": 10', "}"]
        return finish(g, Doc("config/db.json", lines), [(pw, "password")])
    if form == "commit":
        text = "Point staging at the new database\n\nDATABASE_URL=%s\n" % url
        return "commit_message", "", text, [{"value": pw, "what": "password"}]
    if form == "jdbc":
        jd = "jdbc:postgresql://db.internal:5432/shop?user=shop&password=%s&ssl=true" % pw
        lines = ["spring.datasource.url=" + jd, "spring.datasource.hikari.maximum-pool-size=10"]
        return finish(
            g,
            Doc("src/main/resources/application.properties", lines, flat=True),
            [(pw, "password")],
        )
    lines = ["## Local database", "", "Connect with:", "", "    psql '%s'" % url, ""]
    return finish(g, Doc(g.pick(["README.md", "docs/dev.md"]), lines), [(pw, "password")])


PROSE = [
    ("en", "The password is {v}"),
    ("en", "the password is {v} (same as staging)"),
    ("en", "Password: {v}"),
    ("en", "Log in as admin with password {v}."),
    ("en", "use `{v}` as the password"),
    ("en", "pw: {v}"),
    ("en", "The admin password for the router is {v}."),
    ("de", "Das Passwort ist {v}"),
    ("de", "Das Passwort lautet {v}."),
    ("de", "Passwort: {v}"),
    ("fr", "Le mot de passe est {v}"),
    ("fr", "mot de passe : {v}"),
    ("fr", "Le mot de passe du compte est « {v} »."),
    ("es", "La contraseña es {v}"),
    ("es", "contraseña: {v}"),
    ("it", "La password è {v}"),
    ("pt", "A senha é {v}"),
    ("pt", "senha: {v}"),
    ("nl", "Het wachtwoord is {v}"),
    ("ru", "Пароль: {v}"),
    ("ru", "пароль от сервера — {v}"),
    ("pl", "Hasło: {v}"),
    ("pl", "hasło to {v}"),
    ("ja", "パスワードは {v} です。"),
    ("zh", "密码是 {v}"),
    ("zh", "密码：{v}"),
    ("tr", "Şifre: {v}"),
    ("sv", "Lösenordet är {v}"),
]


def p_prose(g):
    lang, tpl = g.cycle(PROSE)
    v = g.pick(
        [
            # Never ending in punctuation, which prose could claim for itself.
            g.pick(WORDS) + g.pick(["!", "", "#", "?", "@"]) + str(g.int(10, 9999)),
            g.mixed(ALNUM, g.int(10, 18)),
            g.pick(WORDS).lower() + g.pick(["_", "-", "."]) + g.mixed(ALNUM, 6),
        ]
    )
    line = tpl.format(v=v)
    form = g.pick(["doc", "doc", "doc", "commit", "comment"])
    if form == "commit":
        text = "%s\n\n%s\n" % (
            g.pick(["Add staging notes", "Update onboarding", "Notes for the handover"]),
            line,
        )
        return "commit_message", "", text, [{"value": v, "what": "password"}]
    if form == "comment":
        lines = [
            "def connect():",
            "    # " + line,
            '    return db.connect(host="db.internal", user="admin")',
        ]
        return finish(g, Doc("tools/maintenance.py", lines), [(v, "password")])
    heading = {
        "en": "Access",
        "de": "Zugang",
        "fr": "Accès",
        "es": "Acceso",
        "it": "Accesso",
        "pt": "Acesso",
        "nl": "Toegang",
        "ru": "Доступ",
        "pl": "Dostęp",
        "ja": "アクセス",
        "zh": "访问",
        "tr": "Erişim",
        "sv": "Åtkomst",
    }[lang]
    lines = [
        "# " + heading,
        "",
        g.pick(
            ["Staging server: staging.example.com", "Router: 192.168.1.1", "VPN: vpn.example.com"]
        ),
        "",
        line,
        "",
    ]
    return finish(
        g,
        Doc(g.pick(["docs/access.md", "NOTES.md", "wiki/staging.md", "README.txt"]), lines),
        [(v, "password")],
    )


POSITIVE = [
    ("aws", p_aws),
    ("github-token", simple(v_github, "github")),
    ("gitlab-token", simple(v_gitlab, "gitlab")),
    ("slack", p_slack),
    ("stripe", simple(v_stripe, "stripe")),
    ("google", simple(v_google, "google")),
    ("gcp-service-account", p_gcp),
    ("openai", simple(v_openai, "openai")),
    ("anthropic", simple(v_anthropic, "anthropic")),
    ("npm-token", simple(v_npm, "npm")),
    ("telegram", simple(v_telegram, "telegram")),
    ("jwt", simple(v_jwt, "jwt")),
    ("azure", p_azure),
    ("twilio", p_twilio),
    ("sendgrid", simple(v_sendgrid, "sendgrid")),
    ("shopify", simple(v_shopify, "shopify")),
    ("huggingface", simple(v_huggingface, "huggingface")),
    ("pypi", simple(v_pypi, "pypi")),
    ("dockerhub", simple(v_docker, "docker")),
    ("digitalocean", simple(v_digitalocean, "digitalocean")),
    ("datadog", p_datadog),
    ("mailgun", p_mailgun),
    ("heroku", p_heroku),
    ("discord", p_discord),
    (
        "other-provider",
        lambda g: (lambda v: positive_token_record(g, v[0], v[1], v[2]))(v_other(g)),
    ),
    ("url-password", p_url_password),
    ("private-key-pem", pem_record),
    ("private-key-base64", p_key_b64),
    ("private-key-material", p_key_material),
    (
        "setting-yaml",
        lambda g: setting_record(
            g, ["yaml", "yaml", "helm", "ghactions", "k8s", "compose", "gitlabci"]
        ),
    ),
    ("setting-json", p_setting_json),
    ("setting-env", lambda g: setting_record(g, ["env"])),
    ("setting-ini-toml", lambda g: setting_record(g, ["ini", "toml"])),
    ("setting-xml-properties", lambda g: setting_record(g, ["xml", "properties"])),
    ("setting-code", lambda g: setting_record(g, CODE)),
    ("setting-shell-docker", p_setting_shell),
    ("setting-terraform", lambda g: setting_record(g, ["terraform"])),
    ("prose-password", p_prose),
]


# ---------------------------------------------------------------------------------------
# Negatives: text that holds no secret, shaped like the things detectors confuse with one.


def neg(g, doc, focus=None, mode=None):
    """A negative record from a Doc; a diff changes the line holding `focus` (or any)."""
    if mode is None:
        mode = g.pick(["file"] * 12 + ["crlf"] * 3 + ["diff"] * 4)
    lines = doc.lines
    if mode == "diff":
        k = next(
            (i for i, ln in enumerate(lines) if focus and focus in ln), g.int(0, len(lines) - 1)
        )
        lo, hi = max(0, k - g.int(1, 3)), min(len(lines), k + 1 + g.int(1, 3))
        out = diff_header(g, doc.path)
        hunk = []
        old = new = 0
        for i in range(lo, hi):
            if i == k:
                if g.chance(0.5):
                    hunk.append("-" + g.pick(["", "# TODO"]))
                    old += 1
                hunk.append("+" + lines[i])
                new += 1
            else:
                hunk.append(" " + lines[i])
                old += 1
                new += 1
        out.append("@@ -%d,%d +%d,%d @@%s" % (lo + 1, old, lo + 1, new, hunk_context(lines, lo)))
        return "diff", doc.path, "\n".join(out + hunk) + "\n", []
    text = "\n".join(lines) + "\n"
    if mode == "crlf":
        text = text.replace("\n", "\r\n")
    return "file", doc.path, text, []


def n_git_sha(g):
    sha = g.hex(40)
    short = sha[: g.pick([7, 8, 12])]
    form = g.pick(
        [
            "changelog",
            "actions",
            "cargo",
            "pkg",
            "revert",
            "blame",
            "flake",
            "gomod",
            "log",
            "submodule",
        ]
    )
    if form == "changelog":
        lines = [
            "## %d.%d.%d" % (g.int(1, 4), g.int(0, 20), g.int(0, 9)),
            "",
            "- Fix crash on empty input ([%s](https://github.com/acme/lib/commit/%s))"
            % (short, sha),
            "- Faster startup (%s)" % g.hex(7),
        ]
        return neg(g, Doc("CHANGELOG.md", lines), sha)
    if form == "actions":
        lines = [
            "    steps:",
            "      - uses: actions/checkout@%s # v4.1.1" % sha,
            "      - uses: actions/setup-node@%s # v4.0.2" % g.hex(40),
            "        with:",
            "          node-version: 20",
        ]
        return neg(g, Doc(".github/workflows/ci.yml", lines), sha)
    if form == "cargo":
        lines = [
            "[dependencies]",
            'serde = "1.0"',
            'tokio = { version = "1", features = ["full"] }',
            'fastlib = { git = "https://github.com/acme/fastlib", rev = "%s" }' % sha,
        ]
        return neg(g, Doc("Cargo.toml", lines), sha)
    if form == "pkg":
        lines = [
            "{",
            '  "dependencies": {',
            '    "left-pad": "^1.3.0",',
            '    "acme-ui": "github:acme/ui#%s"' % sha,
            "  }",
            "}",
        ]
        return neg(g, Doc("package.json", lines), sha)
    if form == "revert":
        text = 'Revert "Add response caching"\n\nThis reverts commit %s.\n' % sha
        if g.chance(0.5):
            text = (
                "Fix flaky test\n\n(cherry picked from commit %s)\n\nSigned-off-by: Ada <ada@example.com>\n"
                % sha
            )
        return "commit_message", "", text, []
    if form == "blame":
        lines = ["# Formatting with clang-format", sha, "# Move to src/", g.hex(40)]
        return neg(g, Doc(".git-blame-ignore-revs", lines), sha)
    if form == "flake":
        lines = [
            '    "nixpkgs": {',
            '      "locked": {',
            '        "lastModified": %d,' % g.int(1.6e9, 1.75e9),
            '        "narHash": "sha256-%s",' % g.b64(32),
            '        "owner": "NixOS",',
            '        "repo": "nixpkgs",',
            '        "rev": "%s",' % sha,
            '        "type": "github"',
            "      },",
        ]
        return neg(g, Doc("flake.lock", lines), sha)
    if form == "gomod":
        lines = [
            "module github.com/acme/api",
            "",
            "go 1.22",
            "",
            "require (",
            "\tgithub.com/acme/kit v0.0.0-%d-%s"
            % (g.int(20200101000000, 20251231000000), sha[:12]),
            "\tgolang.org/x/sync v0.7.0",
            ")",
        ]
        return neg(g, Doc("go.mod", lines), sha[:12])
    if form == "log":
        lines = [
            "$ git log --oneline -3",
            "%s Merge pull request #%d from acme/fix-auth" % (short, g.int(10, 999)),
            "%s Fix token refresh" % g.hex(7),
            "%s Bump version" % g.hex(7),
        ]
        return neg(g, Doc("docs/release-process.md", lines), short)
    lines = [
        "$ git submodule status",
        " %s vendor/libgit2 (v1.7.2)" % sha,
        " %s third_party/re2 (2024-02-01)" % g.hex(40),
    ]
    return neg(g, Doc("docs/building.md", lines), sha)


def n_sha256(g):
    h = g.hex(64)
    form = g.pick(
        ["sums", "docker_digest", "tflock", "pip", "bazel", "brew", "k8s", "cargo_lock", "sha1"]
    )
    if form == "sums":
        lines = [
            "%s  repo-reader-%s-linux-amd64.tar.gz" % (h, "1.2.0"),
            "%s  repo-reader-1.2.0-darwin-arm64.tar.gz" % g.hex(64),
        ]
        return neg(g, Doc("dist/SHA256SUMS", lines), h)
    if form == "docker_digest":
        lines = [
            "FROM node:20-alpine@sha256:%s AS build" % h,
            "WORKDIR /app",
            "COPY . .",
            "RUN npm ci",
        ]
        return neg(g, Doc("Dockerfile", lines), h)
    if form == "tflock":
        lines = [
            'provider "registry.terraform.io/hashicorp/aws" {',
            '  version     = "5.31.0"',
            '  constraints = "~> 5.0"',
            "  hashes = [",
            '    "h1:%s",' % g.b64(32),
            '    "zh:%s",' % h,
            '    "zh:%s",' % g.hex(64),
            "  ]",
            "}",
        ]
        return neg(g, Doc(".terraform.lock.hcl", lines), h)
    if form == "pip":
        lines = [
            "requests==2.31.0 \\",
            "    --hash=sha256:%s \\" % h,
            "    --hash=sha256:%s" % g.hex(64),
            "urllib3==2.2.1 \\",
            "    --hash=sha256:%s" % g.hex(64),
        ]
        return neg(g, Doc("requirements.lock", lines), h)
    if form == "bazel":
        lines = [
            "http_archive(",
            '    name = "com_google_absl",',
            '    sha256 = "%s",' % h,
            '    strip_prefix = "abseil-cpp-20240116.1",',
            '    urls = ["https://github.com/abseil/abseil-cpp/archive/20240116.1.tar.gz"],',
            ")",
        ]
        return neg(g, Doc("WORKSPACE", lines), h)
    if form == "brew":
        lines = [
            "class RepoReader < Formula",
            '  url "https://example.com/repo-reader-1.2.0.tar.gz"',
            '  sha256 "%s"' % h,
            '  license "Apache-2.0"',
            "end",
        ]
        return neg(g, Doc("Formula/repo-reader.rb", lines), h)
    if form == "k8s":
        lines = [
            "      containers:",
            "        - name: api",
            "          image: ghcr.io/acme/api@sha256:%s" % h,
            "          imagePullPolicy: IfNotPresent",
        ]
        return neg(g, Doc("k8s/api.yaml", lines), h)
    if form == "cargo_lock":
        lines = [
            "[[package]]",
            'name = "serde"',
            'version = "1.0.197"',
            'source = "registry+https://github.com/rust-lang/crates.io-index"',
            'checksum = "%s"' % h,
        ]
        return neg(g, Doc("Cargo.lock", lines), h)
    lines = [
        "| file | sha1 |",
        "|---|---|",
        "| installer.exe | `%s` |" % g.hex(40),
        "| installer.msi | `%s` |" % g.hex(40),
    ]
    return neg(g, Doc("docs/downloads.md", lines))


def n_uuid(g):
    u = g.uuid()
    form = g.pick(["sln", "json", "k8s", "tf", "appsettings", "log", "sql", "grafana"])
    if form == "sln":
        lines = [
            'Project("{%s}") = "Api", "src\\Api\\Api.csproj", "{%s}"'
            % (g.uuid().upper(), u.upper()),
            "EndProject",
        ]
        return neg(g, Doc("Acme.sln", lines), u.upper())
    if form == "json":
        lines = [
            "[",
            '  { "id": "%s", "name": "Widget", "price": 9.99 },' % u,
            '  { "id": "%s", "name": "Gadget", "price": 19.5 }' % g.uuid(),
            "]",
        ]
        return neg(g, Doc("tests/fixtures/products.json", lines), u)
    if form == "k8s":
        lines = [
            "metadata:",
            "  name: api-7d9f8c6b5-x2x7q",
            "  namespace: prod",
            "  uid: " + u,
            '  resourceVersion: "%d"' % g.int(10000, 9999999),
        ]
        return neg(g, Doc("docs/debug/pod.yaml", lines), u)
    if form == "tf":
        lines = [
            'provider "azurerm" {',
            "  features {}",
            '  subscription_id = "%s"' % u,
            '  tenant_id       = "%s"' % g.uuid(),
            "}",
        ]
        return neg(g, Doc("infra/azure.tf", lines), u)
    if form == "appsettings":
        lines = [
            "{",
            '  "AzureAd": {',
            '    "Instance": "https://login.microsoftonline.com/",',
            '    "TenantId": "%s",' % u,
            '    "ClientId": "%s"' % g.uuid(),
            "  }",
            "}",
        ]
        return neg(g, Doc("appsettings.json", lines), u)
    if form == "log":
        lines = [
            "2024-05-01T12:00:01Z INFO request_id=%s method=GET path=/v1/orders status=200" % u,
            "2024-05-01T12:00:02Z INFO request_id=%s method=POST path=/v1/orders status=201"
            % g.uuid(),
        ]
        return neg(g, Doc("docs/logging.md", lines), u)
    if form == "sql":
        lines = [
            "INSERT INTO users (id, email, created_at) VALUES",
            "  ('%s', 'ada@example.com', now())," % u,
            "  ('%s', 'grace@example.com', now());" % g.uuid(),
        ]
        return neg(g, Doc("db/seeds/users.sql", lines), u)
    lines = [
        "{",
        '  "dashboard": {',
        '    "uid": "%s",' % u,
        '    "title": "API latency",',
        '    "version": 7',
        "  }",
        "}",
    ]
    return neg(g, Doc("grafana/dashboards/api.json", lines), u)


def png_b64(g, n):
    data = (
        b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"
        + struct.pack(">II", g.int(8, 64), g.int(8, 64))
        + b"\x08\x06\x00\x00\x00"
        + g.bytes(n)
    )
    return base64.b64encode(data).decode()


def n_base64_image(g):
    kind = g.pick(["png", "png", "gif", "svg", "woff2", "jpeg"])
    if kind == "png":
        uri = "data:image/png;base64," + png_b64(g, g.int(60, 900))
    elif kind == "gif":
        uri = (
            "data:image/gif;base64,"
            + base64.b64encode(b"GIF89a" + g.bytes(g.int(30, 300))).decode()
        )
    elif kind == "jpeg":
        uri = (
            "data:image/jpeg;base64,"
            + base64.b64encode(b"\xff\xd8\xff\xe0\x00\x10JFIF" + g.bytes(g.int(100, 900))).decode()
        )
    elif kind == "svg":
        svg = (
            '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 24"><path d="M%d %dh%dv%dz" fill="#%s"/></svg>'
            % (g.int(1, 9), g.int(1, 9), g.int(1, 20), g.int(1, 20), g.hex(6))
        )
        uri = "data:image/svg+xml;base64," + base64.b64encode(svg.encode()).decode()
    else:
        uri = (
            "data:font/woff2;base64,"
            + base64.b64encode(b"wOF2\x00\x01\x00\x00" + g.bytes(g.int(200, 1200))).decode()
        )
    form = g.pick(["css", "html", "md", "json", "js"])
    if form == "css":
        lines = [
            ".icon-%s {" % g.pick(["check", "close", "spinner", "logo"]),
            "  width: 16px;",
            "  background: url(%s) no-repeat;" % uri,
            "}",
        ]
        if kind == "woff2":
            lines = [
                "@font-face {",
                "  font-family: 'Inter';",
                "  src: url(%s) format('woff2');" % uri,
                "}",
            ]
        return neg(g, Doc(g.pick(["src/styles/icons.css", "static/app.css"]), lines), "base64,")
    if form == "html":
        lines = ['<div class="logo">', '  <img alt="logo" src="%s">' % uri, "</div>"]
        return neg(g, Doc("public/index.html", lines), "base64,")
    if form == "md":
        lines = ["# Status", "", "![badge](%s)" % uri, ""]
        return neg(g, Doc("README.md", lines), "base64,")
    if form == "json":
        lines = ["{", '  "name": "Acme",', '  "icon": "%s"' % uri, "}"]
        return neg(g, Doc("public/manifest.json", lines), "base64,")
    lines = ["export const placeholder =", "  '%s';" % uri]
    return neg(g, Doc("src/assets/placeholder.js", lines), "base64,")


def n_integrity(g):
    form = g.pick(
        [
            "npm",
            "npm",
            "yarn",
            "pnpm",
            "sri",
            "gosum",
            "gosum",
            "poetry",
            "composer",
            "nix",
            "gradle",
        ]
    )
    pkg = g.pick(["lodash", "react-dom", "chalk", "semver", "debug", "ms", "axios", "zod"])
    ver = "%d.%d.%d" % (g.int(0, 18), g.int(0, 30), g.int(0, 20))
    if form == "npm":
        lines = [
            '    "node_modules/%s": {' % pkg,
            '      "version": "%s",' % ver,
            '      "resolved": "https://registry.npmjs.org/%s/-/%s-%s.tgz",' % (pkg, pkg, ver),
            '      "integrity": "sha512-%s",' % g.b64(64),
            '      "dev": true',
            "    },",
        ]
        return neg(g, Doc("package-lock.json", lines), "sha512-")
    if form == "yarn":
        lines = [
            "%s@^%s:" % (pkg, ver),
            '  version "%s"' % ver,
            '  resolved "https://registry.yarnpkg.com/%s/-/%s-%s.tgz#%s"'
            % (pkg, pkg, ver, g.hex(40)),
            "  integrity sha512-%s" % g.b64(64),
        ]
        return neg(g, Doc("yarn.lock", lines), "sha512-")
    if form == "pnpm":
        lines = [
            "  /%s@%s:" % (pkg, ver),
            "    resolution: {integrity: sha512-%s}" % g.b64(64),
            "    dev: false",
        ]
        return neg(g, Doc("pnpm-lock.yaml", lines), "sha512-")
    if form == "sri":
        lines = [
            '<script src="https://cdn.jsdelivr.net/npm/%s@%s/dist/%s.min.js"' % (pkg, ver, pkg),
            '        integrity="sha384-%s"' % g.b64(48),
            '        crossorigin="anonymous"></script>',
        ]
        return neg(g, Doc("public/index.html", lines), "sha384-")
    if form == "gosum":
        mod = g.pick(
            [
                "github.com/spf13/cobra",
                "golang.org/x/text",
                "github.com/stretchr/testify",
                "go.uber.org/zap",
            ]
        )
        lines = [
            "%s v%s h1:%s" % (mod, ver, g.b64(32)),
            "%s v%s/go.mod h1:%s" % (mod, ver, g.b64(32)),
        ]
        return neg(g, Doc("go.sum", lines), "h1:")
    if form == "poetry":
        lines = [
            "[[package]]",
            'name = "%s"' % pkg,
            'version = "%s"' % ver,
            "files = [",
            '    {file = "%s-%s-py3-none-any.whl", hash = "sha256:%s"},' % (pkg, ver, g.hex(64)),
            '    {file = "%s-%s.tar.gz", hash = "sha256:%s"},' % (pkg, ver, g.hex(64)),
            "]",
        ]
        return neg(g, Doc("poetry.lock", lines), "sha256:")
    if form == "composer":
        lines = [
            '            "dist": {',
            '                "type": "zip",',
            '                "url": "https://api.github.com/repos/acme/%s/zipball/%s",'
            % (pkg, g.hex(40)),
            '                "reference": "%s",' % g.hex(40),
            '                "shasum": ""',
            "            },",
        ]
        return neg(g, Doc("composer.lock", lines), "reference")
    if form == "nix":
        lines = [
            "  src = fetchFromGitHub {",
            '    owner = "acme";',
            '    repo = "%s";' % pkg,
            '    rev = "v%s";' % ver,
            '    hash = "sha256-%s";' % g.b64(32),
            "  };",
        ]
        return neg(g, Doc("default.nix", lines), "sha256-")
    lines = [
        '<component group="com.squareup.okio" name="okio" version="%s">' % ver,
        '   <artifact name="okio-%s.jar">' % ver,
        '      <sha256 value="%s" origin="Generated by Gradle"/>' % g.hex(64),
        "   </artifact>",
        "</component>",
    ]
    return neg(g, Doc("gradle/verification-metadata.xml", lines), "sha256")


PLACEHOLDERS = [
    "changeme",
    "CHANGEME",
    "change-me",
    "<your-token>",
    "<password>",
    "<YOUR_API_KEY>",
    "your-api-key-here",
    "YOUR_SECRET_HERE",
    "your_password",
    "xxx",
    "xxxxxxxx",
    "XXXXXXXXXXXXXXXX",
    "***",
    "********",
    "...",
    "REPLACE_ME",
    "TODO",
    "<redacted>",
    "[REDACTED]",
    "<secret>",
    "your-token-goes-here",
    "<insert token here>",
    "PUT_YOUR_KEY_HERE",
    "__SECRET__",
    "%SECRET%",
    "sk-...",
    "ghp_...",
    "sk_live_...",
    "xoxb-...",
    "<base64-encoded-key>",
    "CHANGE_ME_IN_PROD",
    "ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
    "glpat-xxxxxxxxxxxxxxxxxxxx",
    "sk-xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",
    "xoxb-xxxxxxxxxxx-xxxxxxxxxxxxx-xxxxxxxxxxxxxxxxxxxxxxxx",
    "AIzaXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX",
    "npm_XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX",
    "",
]


def n_placeholder(g):
    if g.chance(0.15):
        url = g.pick(
            [
                "postgres://user:<password>@localhost:5432/app",
                "redis://:${REDIS_PASSWORD}@redis:6379/0",
                "https://<user>:<token>@github.com/acme/repo.git",
                "mysql://root:changeme@127.0.0.1:3306/test",
                "amqp://guest:****@rabbitmq:5672/",
                "mongodb://admin:<password>@mongo:27017/?authSource=admin",
                "postgresql://app:${DB_PASSWORD}@db/app",
                "https://${NEXUS_USER}:${NEXUS_PASSWORD}@nexus.example.com/repo",
            ]
        )
        words = g.pick(
            [["database", "url"], ["redis", "url"], ["remote", "url"], ["broker", "url"]]
        )
        doc = render(g, g.pick(["env", "yaml", "json", "markdown", "toml"]), words, url)
        return neg(g, doc, url[:8])
    value = g.pick(PLACEHOLDERS)
    words = g.pick(SECRET_NAMES + NAMES["github"] + NAMES["openai"] + NAMES["stripe"])
    fmt = g.pick(FORMATS)
    doc = render(g, fmt, words, value) or render(g, "yaml", words, value)
    return neg(g, doc, value or None)


REFS = {
    "env": ["${{{U}}}", "${{{U}:-}}", "${{VAULT_{U}}}", "$({{cat /run/secrets/{l}}})"],
    "yaml": [
        "${{{U}}}",
        '"{{{{ .Values.{c} }}}}"',
        '"{{{{ vault_{l} }}}}"',
        "${{{{ secrets.{U} }}}}",
        "!ENV ${{{U}}}",
        "\"{{{{ lookup('env', '{U}') }}}}\"",
    ],
    "json": [
        '"${{{U}}}"',
        '"#{{{P}}}#"',
        '"{{{{resolve:secretsmanager:prod/app:SecretString:{l}}}}}"',
        '"arn:aws:secretsmanager:eu-west-1:123456789012:secret:prod/{l}"',
        '"env:{U}"',
    ],
    "toml": ['"${{{U}}}"', '"env:{U}"'],
    "ini": ["${{{U}}}", "%({l})s", "${{env:{U}}}"],
    "properties": ["${{{U}}}", "${{vcap.services.db.credentials.{l}}}", "${{{d}}}"],
    "python": [
        'os.environ["{U}"]',
        'os.getenv("{U}")',
        'os.environ.get("{U}", "")',
        "settings.{U}",
        'config("{U}")',
        'env("{U}")',
        'get_secret("{k}")',
        "None",
    ],
    "js": [
        "process.env.{U}",
        "process.env['{U}']",
        "import.meta.env.VITE_{U}",
        "config.get('{c}')",
        "process.env.{U} ?? ''",
    ],
    "go": ['os.Getenv("{U}")', "cfg.{P}", 'viper.GetString("{d}")'],
    "java": ['System.getenv("{U}")', 'env.getProperty("{d}")', 'props.getProperty("{d}")'],
    "ruby": ['ENV["{U}"]', 'ENV.fetch("{U}")', "Rails.application.credentials.{l}"],
    "php": ["env('{U}')", "getenv('{U}')", "$_ENV['{U}']"],
    "csharp": ['Environment.GetEnvironmentVariable("{U}")', 'Configuration["{P}"]'],
    "rust": ['std::env::var("{U}")?', 'env!("{U}")'],
    "shell": [
        '"${{{U}}}"',
        '"$({{vault kv get -field={l} secret/app}})"',
        '"$(cat /run/secrets/{l})"',
        '"$(aws ssm get-parameter --name /prod/{l} --with-decryption --query Parameter.Value --output text)"',
    ],
    "dockerfile": ["${{{U}}}"],
    "terraform": [
        "var.{l}",
        "data.aws_ssm_parameter.{l}.value",
        "random_password.{l}.result",
        "local.{l}",
        "sensitive(var.{l})",
    ],
    "ghactions": ["${{{{ secrets.{U} }}}}"],
    "gitlabci": ["${{{U}}}", "$CI_JOB_TOKEN"],
    "k8s": ["$({U})"],
    "compose": ["${{{U}}}", "${{{U}:?set it}}"],
    "helm": ['"{{{{ .Values.{c} }}}}"', '{{{{ required "set {c}" .Values.{c} }}}}'],
    "markdown": ['"$(pass show acme/{l})"', '"${{{U}}}"'],
}


def n_reference(g):
    fmt = g.pick([f for f in FORMATS if f != "xml"])
    words = g.pick(SECRET_NAMES)
    tpl = g.pick(REFS[fmt])
    ref = tpl.format(
        U=name_as(words, "UPPER"),
        l=name_as(words, "snake"),
        c=name_as(words, "camel"),
        P=name_as(words, "pascal"),
        d=name_as(words, "dot"),
        k=name_as(words, "kebab"),
    )
    if fmt == "k8s" and g.chance(0.5):
        lines = [
            "          env:",
            "            - name: %s" % name_as(words, "UPPER"),
            "              valueFrom:",
            "                secretKeyRef:",
            "                  name: app-secrets",
            "                  key: %s" % name_as(words, "kebab"),
        ]
        return neg(g, Doc("k8s/deployment.yaml", lines), "secretKeyRef")
    doc = render(g, fmt, words, None, rhs=ref)
    return neg(g, doc, ref)


IDENT_LINES = {
    "python": [
        "password = user_password",
        "token = self._token",
        "api_key = settings.API_KEY",
        "secret = generate_secret()",
        "    password=password,",
        "def authenticate(username, password):",
        "if not token:",
        "hashed = bcrypt.hashpw(password.encode(), salt)",
        "client_secret = creds.client_secret",
        "self.secret_key = secret_key",
        "password = getpass.getpass()",
        'token = request.headers.get("Authorization")',
        'api_key: str = Field(..., env="API_KEY")',
        'access_token = response.json()["access_token"]',
    ],
    "js": [
        "const { token } = req.body;",
        "  password: hashedPassword,",
        "  apiKey: apiKey,",
        "this.secret = secret;",
        "const token = jwt.sign(payload, secret, { expiresIn: '1h' });",
        "const apiKey = getApiKey(user);",
        "if (password !== confirmPassword) {",
        "  secret: opts.secret,",
        "export const authToken = writable(null);",
        "const accessToken = await refresh(refreshToken);",
    ],
    "go": [
        'token := r.Header.Get("Authorization")',
        "\tPassword: cfg.DBPassword,",
        "secret := cfg.Secret",
        "func Login(user, password string) error {",
        "apiKey := strings.TrimSpace(string(raw))",
        '\tAccessToken string `json:"access_token"`',
        'if token == "" {',
    ],
    "java": [
        'String password = request.getParameter("password");',
        "this.apiKey = apiKey;",
        "user.setPassword(passwordEncoder.encode(rawPassword));",
        "private final String clientSecret;",
        "String token = authHeader.substring(7);",
        "char[] password = console.readPassword();",
    ],
    "ruby": [
        "password = params[:password]",
        "@token = token",
        "secret = Rails.application.secret_key_base",
        "def initialize(api_key:, timeout: 30)",
    ],
    "csharp": [
        "var password = model.Password;",
        "public string ApiKey { get; set; }",
        "_secret = options.Value.Secret;",
    ],
}


def n_identifier(g):
    lang = g.pick(list(IDENT_LINES))
    picks = g.sample(IDENT_LINES[lang], g.int(2, 4))
    path = {
        "python": g.pick(["app/auth.py", "src/users/views.py", "lib/client.py"]),
        "js": g.pick(["src/auth.js", "server/routes/login.ts", "src/stores/session.ts"]),
        "go": g.pick(["internal/auth/handler.go", "pkg/db/config.go"]),
        "java": g.pick(["src/main/java/com/acme/auth/LoginController.java"]),
        "ruby": "app/controllers/sessions_controller.rb",
        "csharp": "src/Api/Controllers/AuthController.cs",
    }[lang]
    return neg(g, Doc(path, picks), picks[0])


def n_public_key(g):
    form = g.pick(
        [
            "authorized_keys",
            "pub",
            "known_hosts",
            "pem_doc",
            "pem_yaml",
            "kubeconfig_ca",
            "jwks",
            "cloudinit",
            "sops",
        ]
    )
    if form == "authorized_keys":
        lines = [ssh_public_key(g) for _ in range(g.int(1, 3))]
        return neg(
            g, Doc(g.pick(["deploy/authorized_keys", "ansible/files/authorized_keys"]), lines)
        )
    if form == "pub":
        return neg(
            g,
            Doc(
                g.pick(["keys/deploy.pub", "docs/id_ed25519.pub", "ci/signing_key.pub"]),
                [ssh_public_key(g)],
            ),
            mode=g.pick(["file", "diff"]),
        )
    if form == "known_hosts":
        lines = [
            "github.com " + ssh_public_key(g, comment=False),
            "gitlab.example.com " + ssh_public_key(g, comment=False),
        ]
        return neg(g, Doc("ci/known_hosts", lines))
    if form == "pem_doc":
        lines = (
            ["## Verifying releases", "", "Our signing key:", "", "```"]
            + public_pem_lines(g)
            + ["```", ""]
        )
        return neg(g, Doc(g.pick(["docs/security.md", "SECURITY.md"]), lines), "-----BEGIN")
    if form == "pem_yaml":
        pem = public_pem_lines(g)
        lines = [
            "apiVersion: v1",
            "kind: ConfigMap",
            "metadata:",
            "  name: trust",
            "data:",
            "  ca.crt: |",
        ] + ["    " + p for p in pem]
        return neg(g, Doc("k8s/ca-configmap.yaml", lines), "-----BEGIN")
    if form == "kubeconfig_ca":
        ca = base64.b64encode(cert_pem_text(g).encode()).decode()
        lines = [
            "apiVersion: v1",
            "clusters:",
            "- cluster:",
            "    certificate-authority-data: " + ca,
            "    server: https://k8s.example.com:6443",
            "  name: prod",
            "users:",
            "- name: dev",
            "  user:",
            "    exec:",
            "      apiVersion: client.authentication.k8s.io/v1beta1",
            "      command: aws",
        ]
        return neg(g, Doc("docs/kubeconfig.example.yaml", lines), "certificate-authority-data")
    if form == "jwks":
        lines = [
            "{",
            '  "keys": [',
            "    {",
            '      "kty": "RSA",',
            '      "kid": "%s",' % g.hex(16),
            '      "use": "sig",',
            '      "alg": "RS256",',
            '      "n": "%s",' % g.b64url(256),
            '      "e": "AQAB"',
            "    }",
            "  ]",
            "}",
        ]
        return neg(g, Doc("public/.well-known/jwks.json", lines), '"n"')
    if form == "cloudinit":
        lines = [
            "#cloud-config",
            "users:",
            "  - name: deploy",
            "    ssh_authorized_keys:",
            "      - " + ssh_public_key(g),
            "    sudo: ALL=(ALL) NOPASSWD:ALL",
        ]
        return neg(g, Doc("infra/cloud-init.yaml", lines), "ssh-")
    lines = [
        "creation_rules:",
        "  - path_regex: secrets/.*\\.yaml$",
        "    age: age1" + g.s("qpzry9x8gf2tvdw0s3jn54khce6mua7l", 58),
    ]
    return neg(g, Doc(".sops.yaml", lines), "age1")


def n_url_no_password(g):
    urls = [
        "https://github.com/acme/api.git",
        "git@github.com:acme/api.git",
        "ssh://git@gitlab.example.com:2222/acme/api.git",
        "https://deploy@bitbucket.org/acme/api.git",
        "postgres://app@localhost:5432/app?sslmode=disable",
        "redis://cache.internal:6379/0",
        "mongodb://db1:27017,db2:27017,db3:27017/app?replicaSet=rs0",
        "http://[::1]:8080/healthz",
        "amqp://rabbitmq:5672/%2F",
        "https://unpkg.com/@acme/ui@2.3.1/dist/index.js",
        "ftp://anonymous@ftp.example.org/pub/",
        "https://registry.npmjs.org/@babel%2fcore",
        "https://%s@o%d.ingest.sentry.io/%d"
        % (g.hex(32), g.int(10000, 999999), g.int(100000, 9999999)),
        "jdbc:postgresql://db.internal:5432/shop?ssl=true",
        "s3://acme-artifacts/releases/1.2.0/",
        "https://user@example.com:8443/path",
        "http://localhost:3000/callback?code=abc&state=xyz",
        "https://api.example.com/v1/oauth/token",
        "mailto:ops@example.com",
        "https://example.com/docs?token_type=bearer&lang=en",
        "https://www.googleapis.com/auth/cloud-platform",
    ]
    url = g.pick(urls)
    words = g.pick(
        [
            ["database", "url"],
            ["repository"],
            ["endpoint"],
            ["dsn"],
            ["remote"],
            ["url"],
            ["homepage"],
            ["token", "url"],
            ["auth", "url"],
        ]
    )
    fmt = g.pick(
        ["env", "yaml", "json", "toml", "markdown", "python", "js", "ini", "properties", "shell"]
    )
    doc = render(g, fmt, words, url) or render(g, "yaml", words, url)
    return neg(g, doc, url[:10])


def n_example_fixture(g):
    pairs = [
        ("AKIAIOSFODNN7EXAMPLE", "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"),
        ("AKIAI44QH8DHBEXAMPLE", "je7MtGbClwBF/2Zp9Utk/h3yCo8nvbEXAMPLEKEY"),
    ]
    kid, sec = g.pick(pairs)
    form = g.pick(["aws_doc", "aws_env", "aws_test", "fake_tokens", "fake_tokens", "constructed"])
    if form == "aws_doc":
        lines = [
            "## Configuring credentials",
            "",
            "```ini",
            "[default]",
            "aws_access_key_id = " + kid,
            "aws_secret_access_key = " + sec,
            "```",
            "",
            "These are AWS's documented example values.",
        ]
        return neg(g, Doc(g.pick(["docs/aws.md", "README.md"]), lines), kid)
    if form == "aws_env":
        lines = [
            "# example values from the AWS documentation",
            "AWS_ACCESS_KEY_ID=" + kid,
            "AWS_SECRET_ACCESS_KEY=" + sec,
            "AWS_DEFAULT_REGION=us-west-2",
        ]
        return neg(g, Doc(g.pick([".env.example", "docs/env.sample"]), lines), kid)
    if form == "aws_test":
        lines = [
            "def test_signing():",
            '    creds = Credentials("%s", "%s")' % (kid, sec),
            '    assert sign(creds, "GET", "/") == EXPECTED',
        ]
        return neg(g, Doc("tests/test_sigv4.py", lines), kid)
    if form == "fake_tokens":
        fakes = [
            "ghp_" + "x" * 36,
            "ghp_" + "0" * 36,
            "ghp_" + "A" * 36,
            "sk_live_" + "0" * 24,
            "xoxb-000000000000-000000000000-" + "x" * 24,
            "glpat-" + "X" * 20,
            "npm_" + "0" * 36,
            "sk-ant-api03-" + "x" * 93 + "AA",
            "AIza" + "0" * 35,
            "hf_" + "x" * 34,
            "dop_v1_" + "0" * 64,
            "SG." + "x" * 22 + "." + "x" * 43,
            "shpat_" + "0" * 32,
        ]
        picks = g.sample(fakes, g.int(1, 3))
        names = ["EXAMPLE_TOKEN", "FAKE_KEY", "DUMMY_SECRET", "SAMPLE_TOKEN", "PLACEHOLDER_KEY"]
        lang = g.pick(["py", "js", "yaml"])
        if lang == "py":
            lines = ["# Obviously fake values for the redaction tests."] + [
                '%s_%d = "%s"' % (g.pick(names), i, p) for i, p in enumerate(picks)
            ]
            path = "tests/fixtures/fake_tokens.py"
        elif lang == "js":
            lines = ["// Fake credentials used by the form tests."] + [
                "export const %s_%d = '%s';" % (g.pick(names), i, p) for i, p in enumerate(picks)
            ]
            path = "test/fixtures/tokens.js"
        else:
            lines = ["# example configuration: replace every value"] + [
                "example_key_%d: %s" % (i, p) for i, p in enumerate(picks)
            ]
            path = "config/example.yml"
        return neg(g, Doc(path, lines), picks[0])
    # Test values built at run time from obviously fake parts.
    lines = [
        "def test_hides_github_token():",
        '    token = "ghp_" + "a" * 36',
        '    assert redact(f"token: {token}") == "token: [hidden]"',
    ]
    return neg(g, Doc("tests/test_redact.py", lines), "ghp_")


def n_number(g):
    items = [
        ("max_tokens", g.pick([256, 1024, 4096, 8192])),
        ("token_limit", g.pick([100000, 128000, 200000])),
        ("password_min_length", g.int(8, 16)),
        ("secret_version", g.int(1, 9)),
        ("token_ttl", g.pick([3600, 86400])),
        ("api_key_rotation_days", g.pick([30, 90])),
        ("max_password_attempts", g.int(3, 10)),
        ("refresh_token_expiry_seconds", g.pick([604800, 2592000])),
        ("pin_length", g.pick([4, 6])),
        ("token_bucket_size", g.int(10, 1000)),
        ("secret", "true"),
        ("require_password", "false"),
        ("key_size", g.pick([2048, 4096])),
        ("auth_timeout_ms", g.int(100, 60000)),
        ("password_history", g.int(3, 24)),
        ("secret_rotation_enabled", "true"),
        ("access_token_lifetime", g.pick([300, 900, 3600])),
        ("max_output_tokens", g.pick([1024, 4096])),
        ("token_count", g.int(0, 999999)),
    ]
    picks = g.sample(items, g.int(2, 5))
    fmt = g.pick(["yaml", "yaml", "env", "json", "toml", "py"])
    if fmt == "yaml":
        lines = ["limits:"] + ["  %s: %s" % kv for kv in picks]
        path = g.pick(["config/limits.yml", "config/llm.yaml", "settings/auth.yml"])
    elif fmt == "env":
        lines = ["%s=%s" % (k.upper(), v) for k, v in picks]
        path = g.pick([".env.example", "config/defaults.env"])
    elif fmt == "json":
        lines = (
            ["{"]
            + [
                '  "%s": %s%s'
                % (name_as(k.split("_"), "camel"), v, "," if i < len(picks) - 1 else "")
                for i, (k, v) in enumerate(picks)
            ]
            + ["}"]
        )
        path = g.pick(["config/limits.json", "src/model-config.json"])
    elif fmt == "toml":
        lines = ["[auth]"] + ["%s = %s" % kv for kv in picks]
        path = "config.toml"
    else:
        lines = [
            "%s = %s" % (k.upper(), {"true": "True", "false": "False"}.get(str(v), v))
            for k, v in picks
        ]
        path = g.pick(["app/limits.py", "settings/base.py"])
    return neg(g, Doc(path, lines), lines[-1])


def n_name_words(g):
    items = [
        "author: Ada Lovelace <ada@example.com>",
        "token_type: Bearer",
        "tokenizer: cl100k_base",
        "password_field: password",
        "secret_name: db-credentials",
        "secretName: ingress-tls",
        "private_key_path: /etc/ssl/private/server.key",
        "api_key_header: X-API-Key",
        "token_url: https://oauth2.googleapis.com/token",
        "password_hash_algorithm: argon2id",
        "auth_method: oauth2",
        "authorization_endpoint: https://auth.example.com/oauth2/authorize",
        "passwordless: true",
        "secret_store: aws-secrets-manager",
        "keyboard_layout: us",
        "credentials_provider: instance-profile",
        "token_endpoint_auth_method: client_secret_basic",
        "password_reset_template: emails/reset.html",
        "key_vault_name: acme-prod-kv",
        "auth_required: true",
        "secrets_file: /run/secrets/app",
        "token_audience: api://acme",
        "ssh_key_name: deploy-2024",
        "api_key_id: key_%s" % g.pick(["prod", "staging", "local"]),
        "token_header: Authorization",
        "secret_ref: projects/acme/secrets/db-password/versions/latest",
        "password_policy: strong",
        "use_ssl: true",
        "pass_through: false",
        "passenger_count: 3",
        "session_cookie_name: _acme_session",
    ]
    lines = g.sample(items, g.int(2, 5))
    fmt = g.pick(["yaml", "yaml", "env", "json"])
    if fmt == "env":
        lines = [
            ln.split(": ", 1)[0].upper() + "=" + ln.split(": ", 1)[1].replace(" ", "_")
            for ln in lines
        ]
        path = g.pick([".env.example", "config/app.env"])
    elif fmt == "json":
        parts = [ln.split(": ", 1) for ln in lines]
        lines = (
            ["{"]
            + [
                '  "%s": "%s"%s' % (k, v, "," if i < len(parts) - 1 else "")
                for i, (k, v) in enumerate(parts)
            ]
            + ["}"]
        )
        path = "config/auth.json"
    else:
        path = g.pick(["config/auth.yml", "config/app.yaml", "deploy/values.yaml"])
    return neg(g, Doc(path, lines), lines[min(1, len(lines) - 1)])


def n_random_id(g):
    form = g.pick(
        [
            "trace",
            "css",
            "chunks",
            "minified",
            "objectid",
            "container",
            "podname",
            "ulid",
            "etag",
            "ga",
            "snowflake",
            "stripe_ids",
        ]
    )
    if form == "trace":
        lines = [
            '{"ts":"2024-05-01T10:00:00Z","level":"info","trace_id":"%s","span_id":"%s","msg":"request done"}'
            % (g.hex(32), g.hex(16)),
            "traceparent: 00-%s-%s-01" % (g.hex(32), g.hex(16)),
        ]
        return neg(g, Doc("docs/tracing.md", lines), "trace")
    if form == "css":
        cls = lambda: "%s_%s__%s" % (
            g.pick(["Button", "Card", "Header", "Nav"]),
            g.pick(["root", "primary", "title", "icon"]),
            g.mixed(ALNUM + "-_", 5),
        )
        lines = [
            '<button class="%s %s">Save</button>' % (cls(), cls()),
            '<div class="css-%s e1%s0">' % (g.s(LOWER + DIGITS, 6), g.s(LOWER + DIGITS, 5)),
        ]
        return neg(g, Doc("tests/__snapshots__/Button.test.js.snap", lines))
    if form == "chunks":
        lines = [
            '<script defer src="/static/js/main.%s.js"></script>' % g.hex(8),
            '<link href="/static/css/main.%s.css" rel="stylesheet">' % g.hex(8),
            '<script src="/_next/static/chunks/pages/_app-%s.js"></script>' % g.hex(16),
        ]
        return neg(g, Doc("build/index.html", lines))
    if form == "minified":
        ids = [g.s(string.ascii_letters + "$_", g.int(1, 3)) for _ in range(12)]
        lines = [
            "!function(%s,%s){var %s=%s.exports,%s=function(%s){return %s&&%s.__esModule?%s:{default:%s}};%s.%s=%s}(this,function(){return 0});"
            % tuple(ids + ids[:1]),
            "//# sourceMappingURL=vendor.%s.js.map" % g.hex(20),
        ]
        return neg(g, Doc("public/vendor.min.js", lines))
    if form == "objectid":
        lines = [
            'db.orders.find({ _id: ObjectId("%s") })' % g.hex(24),
            'db.users.updateOne({ _id: ObjectId("%s") }, { $set: { active: true } })' % g.hex(24),
        ]
        return neg(g, Doc("scripts/fix-orders.js", lines))
    if form == "container":
        lines = [
            "CONTAINER ID   IMAGE          STATUS",
            "%s   acme/api:1.2   Up 2 hours" % g.hex(12),
            "$ docker inspect --format '{{.Id}}' api",
            g.hex(64),
        ]
        return neg(g, Doc("docs/debugging.md", lines))
    if form == "podname":
        lines = [
            "NAME                        READY   STATUS    RESTARTS   AGE",
            "api-%s-%s   1/1     Running   0          3d"
            % (g.s(LOWER + DIGITS, 10), g.s(LOWER + DIGITS, 5)),
            "worker-%s-%s   1/1     Running   2          3d"
            % (g.s(LOWER + DIGITS, 9), g.s(LOWER + DIGITS, 5)),
        ]
        return neg(g, Doc("docs/runbook.md", lines))
    if form == "ulid":
        lines = [
            "-- fixtures",
            "INSERT INTO events (id, kind) VALUES ('01%s', 'signup');"
            % g.s("0123456789ABCDEFGHJKMNPQRSTVWXYZ", 24),
            "INSERT INTO events (id, kind) VALUES ('01%s', 'login');"
            % g.s("0123456789ABCDEFGHJKMNPQRSTVWXYZ", 24),
        ]
        return neg(g, Doc("db/fixtures/events.sql", lines))
    if form == "etag":
        lines = [
            "HTTP/1.1 200 OK",
            'ETag: "%s"' % g.hex(32),
            "Cache-Control: max-age=3600",
            "x-amz-request-id: %s" % g.s(UPPER + DIGITS, 16),
            "x-amz-id-2: %s" % g.b64(54),
        ]
        return neg(g, Doc("docs/s3-responses.md", lines), "ETag")
    if form == "ga":
        lines = [
            '<script async src="https://www.googletagmanager.com/gtag/js?id=G-%s"></script>'
            % g.s(UPPER + DIGITS, 10),
            "gtag('config', 'G-%s');" % g.s(UPPER + DIGITS, 10),
        ]
        return neg(g, Doc("public/analytics.html", lines))
    if form == "snowflake":
        lines = [
            "channels:",
            '  alerts: "%d"' % g.int(10**17, 14 * 10**17),
            '  deploys: "%d"' % g.int(10**17, 14 * 10**17),
        ]
        return neg(g, Doc("config/discord-channels.yml", lines))
    lines = [
        '{"id": "cus_%s", "object": "customer", "email": "ada@example.com"}' % g.mixed(ALNUM, 14),
        '{"id": "pi_%s", "object": "payment_intent", "amount": 2000}' % g.mixed(ALNUM, 24),
    ]
    return neg(g, Doc("tests/fixtures/stripe_events.jsonl", lines))


def n_version(g):
    v = "%d.%d.%d" % (g.int(0, 30), g.int(0, 40), g.int(0, 99))
    form = g.pick(["py", "pkg", "docker", "maven", "gradle", "gomod", "ua", "ruby", "changelog"])
    if form == "py":
        lines = [
            '"""Acme client."""',
            "",
            '__version__ = "%s"' % v,
            '__build__ = "%s.%d"' % (g.int(20230101, 20251231), g.int(1, 9)),
        ]
        path = "acme/__init__.py"
    elif form == "pkg":
        lines = [
            "{",
            '  "name": "@acme/ui",',
            '  "version": "%s-rc.%d+build.%s",' % (v, g.int(1, 5), g.hex(7)),
            '  "engines": { "node": ">=%d.%d.0" }' % (g.int(16, 22), g.int(0, 9)),
            "}",
        ]
        path = "packages/ui/package.json"
    elif form == "docker":
        lines = [
            "FROM node:%d.%d.%d-alpine3.19" % (g.int(16, 22), g.int(0, 12), g.int(0, 3)),
            "ARG APP_VERSION=%s" % v,
            'LABEL org.opencontainers.image.version="%s"' % v,
        ]
        path = "Dockerfile"
    elif form == "maven":
        lines = [
            "  <groupId>com.acme</groupId>",
            "  <artifactId>billing</artifactId>",
            "  <version>%s-SNAPSHOT</version>" % v,
        ]
        path = "pom.xml"
    elif form == "gradle":
        lines = [
            "plugins {",
            '    kotlin("jvm") version "%d.%d.%d"' % (g.int(1, 2), g.int(0, 9), g.int(0, 30)),
            '    id("org.springframework.boot") version "%s"' % v,
            "}",
        ]
        path = "build.gradle.kts"
    elif form == "gomod":
        lines = [
            "module github.com/acme/api",
            "",
            "go 1.%d" % g.int(18, 23),
            "",
            "require github.com/acme/kit v%s" % v,
        ]
        path = "go.mod"
    elif form == "ua":
        lines = [
            "User-Agent: Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/%d.0.%d.%d Safari/537.36"
            % (g.int(100, 130), g.int(1000, 6999), g.int(10, 200)),
            "Accept: text/html",
        ]
        path = "tests/fixtures/request.txt"
    elif form == "ruby":
        lines = [
            "source 'https://rubygems.org'",
            "ruby '%d.%d.%d'" % (g.int(2, 3), g.int(0, 4), g.int(0, 9)),
            "gem 'rails', '~> %s'" % v,
        ]
        path = "Gemfile"
    else:
        lines = [
            "## v%s (%d-%02d-%02d)" % (v, g.int(2020, 2025), g.int(1, 12), g.int(1, 28)),
            "",
            "- firmware v%s-%s" % (v, g.hex(8)),
            "- protocol %d.%d" % (g.int(1, 3), g.int(0, 9)),
        ]
        path = "CHANGELOG.md"
    return neg(g, Doc(path, lines), v)


def n_commit_message(g):
    t = g.pick(
        [
            "Rotate the Stripe key\n\nThe new key is in the vault under prod/stripe; nothing here.\n",
            'Move DB_PASSWORD to the secrets manager\n\nThe app now reads it with os.environ["DB_PASSWORD"].\n',
            "Fix token refresh race\n\nTwo requests could refresh the same refresh_token at once.\nFixes #%d\n"
            % g.int(10, 999),
            "Merge pull request #%d from acme/feature/auth-token\n\nAdd short-lived auth tokens\n"
            % g.int(10, 999),
            "Add password strength meter\n\nUses zxcvbn; passwords under 12 characters are rejected.\n\nCo-authored-by: Grace <grace@example.com>\n",
            "Bump lodash from 4.17.20 to 4.17.21\n\nSigned-off-by: dependabot[bot] <support@github.com>\n",
            "Remove the leaked key from history notes\n\nThe key was revoked on 2024-03-02; see the incident doc.\n",
            "Document how to set API_KEY\n\nexport API_KEY=<your-key> before running the tests.\n",
            "Use ${{ secrets.NPM_TOKEN }} in the publish job\n",
            "Update %s\n\nChange-Id: I%s\n" % (g.pick(["README", "docs", "CI"]), g.hex(40)),
            "Rename token to access_token\n\nMatches the OAuth response field.\n",
            "Stop logging passwords in debug mode\n\nThe password is now masked as ******** in logs.\n",
        ]
    )
    if g.chance(0.2):
        t = t.replace("\n", "\r\n")
    return "commit_message", "", t, []


def n_diff(g):
    form = g.pick(["bump", "lock", "ref"])
    if form == "bump":
        old, new = "%d.%d.%d" % (g.int(1, 9), g.int(0, 9), g.int(0, 9)), "%d.%d.%d" % (
            g.int(1, 9),
            g.int(10, 19),
            g.int(0, 9),
        )
        lines = diff_header(g, "package.json") + [
            "@@ -3,7 +3,7 @@",
            '   "private": true,',
            '   "dependencies": {',
            '-    "axios": "^%s",' % old,
            '+    "axios": "^%s",' % new,
            '     "zod": "^3.22.4"',
            "   },",
        ]
        return "diff", "package.json", "\n".join(lines) + "\n", []
    if form == "lock":
        lines = diff_header(g, "package-lock.json") + [
            "@@ -120,9 +120,9 @@",
            '     "node_modules/ms": {',
            '-      "version": "2.1.2",',
            '+      "version": "2.1.3",',
            '-      "integrity": "sha512-%s",' % g.b64(64),
            '+      "integrity": "sha512-%s",' % g.b64(64),
            '       "dev": true',
            "     },",
        ]
        return "diff", "package-lock.json", "\n".join(lines) + "\n", []
    words = g.pick(SECRET_NAMES)
    U = name_as(words, "UPPER")
    lines = diff_header(g, "config/app.yml") + [
        "@@ -10,6 +10,6 @@ database:",
        "   host: db.internal",
        "   port: 5432",
        "-  %s: changeme" % name_as(words, "snake"),
        "+  %s: ${%s}" % (name_as(words, "snake"), U),
        "   pool: 10",
    ]
    return "diff", "config/app.yml", "\n".join(lines) + "\n", []


def n_prose(g):
    t = g.cycle(
        [
            "The password is stored in Vault under secret/app/db.",
            "The password is required.",
            "The password is hashed with bcrypt before it is stored.",
            "The password is never logged.",
            "Set the password in the environment variable DB_PASSWORD.",
            "If the password is wrong, the login fails.",
            "Das Passwort wird im Tresor gespeichert.",
            "Das Passwort ist erforderlich.",
            "Le mot de passe est obligatoire.",
            "Le mot de passe est stocké dans le coffre.",
            "La contraseña es obligatoria.",
            "La contraseña es demasiado corta.",
            "La password è obbligatoria.",
            "A senha é armazenada com hash.",
            "Het wachtwoord is te kort.",
            "Пароль хранится в Vault.",
            "Hasło jest wymagane.",
            "パスワードは必須です。",
            "密码是必填项。",
            "The password is the one from the team's 1Password vault.",
            "Your password is too short (minimum 12 characters).",
            "the token is rotated every 90 days and kept in the secrets manager",
            "Password: see the vault entry “staging db”.",
            "Passwort: siehe Tresor.",
        ]
    )
    lines = ["## " + g.pick(["Accounts", "Login", "Security", "FAQ"]), "", t, ""]
    return neg(
        g,
        Doc(
            g.pick(["docs/security.md", "docs/faq.md", "README.md", "docs/de/anmeldung.md"]), lines
        ),
        t[:10],
    )


def n_code_data(g):
    form = g.pick(["sourcemap", "svg", "colors", "regex", "testvec", "unicode"])
    if form == "sourcemap":
        seg = lambda: g.s(
            "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/", g.int(4, 8)
        )
        mappings = ";".join(
            ",".join(seg() for _ in range(g.int(2, 6))) for _ in range(g.int(4, 10))
        )
        lines = [
            '{"version":3,"file":"app.js","sources":["../src/app.ts"],"names":[],"mappings":"%s"}'
            % mappings
        ]
        return neg(g, Doc("dist/app.js.map", lines))
    if form == "svg":
        d = " ".join(
            "%s%d.%d %d.%d"
            % (g.pick("MLCQ"), g.int(0, 24), g.int(0, 99), g.int(0, 24), g.int(0, 99))
            for _ in range(g.int(8, 20))
        )
        lines = [
            '<svg viewBox="0 0 24 24" xmlns="http://www.w3.org/2000/svg">',
            '  <path d="%sz"/>' % d,
            "</svg>",
        ]
        return neg(g, Doc("src/icons/%s.svg" % g.pick(["check", "close", "key", "lock"]), lines))
    if form == "colors":
        lines = (
            ["$palette: ("]
            + [
                "  %s: #%s,"
                % (
                    g.pick(["primary", "accent", "muted", "danger", "info", "ok"]) + str(i),
                    g.hex(6),
                )
                for i in range(g.int(3, 6))
            ]
            + [");"]
        )
        return neg(g, Doc("src/styles/_palette.scss", lines))
    if form == "regex":
        lines = [
            "const TOKEN_RE = /^gh[pousr]_[A-Za-z0-9]{36}$/;",
            "const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;",
            "const KEY_RE = /-----BEGIN [A-Z ]+PRIVATE KEY-----/;",
        ]
        return neg(g, Doc("src/validate.js", lines))
    if form == "testvec":
        lines = [
            "def test_sha256():",
            '    assert sha256(b"abc").hexdigest() == "%s"' % g.hex(64),
            '    assert hmac_sha256(b"key", b"msg").hex() == "%s"' % g.hex(64),
        ]
        return neg(g, Doc("tests/test_digest.py", lines))
    lines = (
        ["static const uint32_t kTable[] = {"]
        + [
            "    " + ", ".join("0x%s" % g.hex(8) for _ in range(4)) + ","
            for _ in range(g.int(3, 6))
        ]
        + ["};"]
    )
    return neg(g, Doc("src/crc_table.h", lines))


NEGATIVE = [
    ("negative:git-sha", n_git_sha),
    ("negative:sha256", n_sha256),
    ("negative:uuid", n_uuid),
    ("negative:base64-image", n_base64_image),
    ("negative:integrity-hash", n_integrity),
    ("negative:placeholder", n_placeholder),
    ("negative:reference", n_reference),
    ("negative:identifier", n_identifier),
    ("negative:public-key", n_public_key),
    ("negative:url-no-password", n_url_no_password),
    ("negative:example-fixture", n_example_fixture),
    ("negative:number", n_number),
    ("negative:name-words", n_name_words),
    ("negative:random-id", n_random_id),
    ("negative:version", n_version),
    ("negative:commit-message", n_commit_message),
    ("negative:diff", n_diff),
    ("negative:prose", n_prose),
    ("negative:code-data", n_code_data),
]


def short(category):
    return category.replace("negative:", "neg-")


def build(seed, per_category, negatives_per_category):
    records = []
    for cat, fn in POSITIVE + NEGATIVE:
        n = negatives_per_category if cat.startswith("negative:") else per_category
        g = Gen("%d/%s" % (seed, cat))
        seen = set()
        i = 0
        attempts = 0
        while i < n:
            attempts += 1
            if attempts > n * 20:
                raise SystemExit("%s: cannot make %d distinct records" % (cat, n))
            g.n = attempts - 1
            kind, path, text, secrets = fn(g)
            if text in seen:
                continue
            for s in secrets:
                if not s["value"] or s["value"] not in text:
                    raise SystemExit("%s: value %r not in text:\n%s" % (cat, s["value"], text))
            seen.add(text)
            i += 1
            records.append(
                {
                    "id": "%s-%04d" % (short(cat), i),
                    "category": cat,
                    "kind": kind,
                    "path": path,
                    "text": text,
                    "secrets": secrets,
                }
            )
    return records


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--out", default=os.path.join(here, "out", "corpus.jsonl"))
    ap.add_argument("--per-category", type=int, default=80, help="positive records per category")
    ap.add_argument(
        "--negatives-per-category", type=int, default=120, help="records per negative category"
    )
    ap.add_argument("--summary", action="store_true", help="print the counts per category")
    args = ap.parse_args()
    records = build(args.seed, args.per_category, args.negatives_per_category)
    os.makedirs(os.path.dirname(os.path.abspath(args.out)), exist_ok=True)
    with open(args.out, "w", encoding="utf-8", newline="\n") as f:
        for r in records:
            f.write(json.dumps(r, ensure_ascii=False) + "\n")
    pos = [r for r in records if r["secrets"]]
    negs = [r for r in records if not r["secrets"]]
    nsecrets = sum(len(r["secrets"]) for r in pos)
    print(
        "%s: %d records: %d positive (%d secrets) in %d categories, %d negative in %d categories"
        % (args.out, len(records), len(pos), nsecrets, len(POSITIVE), len(negs), len(NEGATIVE))
    )
    if args.summary:
        counts = {}
        for r in records:
            c = counts.setdefault(r["category"], [0, 0, {}])
            c[0] += 1
            c[1] += len(r["secrets"])
            c[2][r["kind"]] = c[2].get(r["kind"], 0) + 1
        for cat, (n, s, kinds) in counts.items():
            print(
                "  %-28s %4d records %4d secrets  %s"
                % (cat, n, s, " ".join("%s=%d" % kv for kv in sorted(kinds.items())))
            )


if __name__ == "__main__":
    main()
