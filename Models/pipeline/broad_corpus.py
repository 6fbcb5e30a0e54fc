#!/usr/bin/env python3
"""Broad English training text from Debian packages (issue 17, text half).

    python3 broad_corpus.py [OUTDIR] [--datasets DIR] [--sources a,b,...] [--no-install]
    python3 broad_corpus.py --self-test

OUTDIR defaults to ~/.cache/sift-train/broad (never inside the repository). Writes:
  units.tsv      genre<TAB>text            distinct normalised texts, sorted by (genre, text)
  pairs.tsv      genre<TAB>short<TAB>long  short->long pairs (headword->definition, command->
                                           synopsis, synopsis->description, title->paragraph),
                                           distinct, sorted
  manifest.json  per source: packages, versions, licence (as stated in the copyright file),
                 genre, units, pairs; totals; exclusion counts; the command line.

Every source is a Debian package (bookworm, main) or Debian's own package index; with root the
script installs missing packages itself (apt-get install -y --no-install-recommends ...), otherwise
it prints what to install and skips the source. Standard library only.

Exclusion filter: every text found in the evaluation collections under --datasets
(default ../shared/datasets: SciFact corpus titles, abstracts and their sentences, SciFact queries,
Cranfield documents, their sentences and queries, every STS/SICK sentence) is keyed (lower-case,
letters and digits only, single spaces); a unit or pair whose text has such a key is dropped and
counted.
"""
import argparse
import gzip
import html
import html.parser
import json
import os
import re
import subprocess
import sys
import time
import unicodedata
from pathlib import Path

MIN_WORDS = 3          # a unit has at least this many words
MAX_WORDS = 60         # ... and at most this many (longer passages are split into sentences)
PAIR_SHORT_MAX = 20    # words in the short side of a pair
PAIR_LONG_MAX = 60     # words in the long side (first sentences up to this many)
MIN_ALPHA = 0.6        # share of non-space characters that are letters (drops code, tables)


def log(*a):
    print(*a, file=sys.stderr, flush=True)


# ---------------------------------------------------------------- normalisation

_CTRL_RE = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u200b-\u200f\u2028\u2029\ufeff]")


def normalise(text: str) -> str:
    """NFC, control characters removed, whitespace folded to single spaces, stripped."""
    text = unicodedata.normalize("NFC", text)
    text = text.replace("\t", " ").replace("\n", " ").replace("\r", " ")
    text = _CTRL_RE.sub("", text)
    return " ".join(text.split())


def dedup_key(text: str) -> str:
    """Exact de-duplication key: lower-case, whitespace folded."""
    return " ".join(text.lower().split())


_LOOSE_RE = re.compile(r"[^0-9a-z]+")


def exclusion_key(text: str) -> str:
    """Looser key for the exclusion filter: lower-case letters/digits, single spaces."""
    t = unicodedata.normalize("NFKD", text.lower())
    return " ".join(_LOOSE_RE.sub(" ", t).split())


def n_words(text: str) -> int:
    return len(text.split())


def acceptable(text: str, min_words=MIN_WORDS, max_words=MAX_WORDS) -> bool:
    n = n_words(text)
    if n < min_words or n > max_words:
        return False
    chars = [c for c in text if not c.isspace()]
    if not chars:
        return False
    alpha = sum(c.isalpha() for c in chars)
    return alpha / len(chars) >= MIN_ALPHA


# ---------------------------------------------------------------- sentence splitting

ABBREVIATIONS = {
    "e.g", "i.e", "etc", "vs", "cf", "mr", "mrs", "ms", "dr", "prof", "st", "jr", "sr",
    "fig", "figs", "vol", "vols", "p", "pp", "ch", "sec", "approx", "ca", "al", "esp", "viz",
    "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec", "gen",
    "gov", "lt", "col", "capt", "sgt", "rev", "hon", "inc", "ltd", "co", "corp", "dept", "univ",
    "eds", "trans", "n", "v", "adj", "adv", "pl", "sing", "obs", "lat", "gr",
    "fr", "ger", "sp", "ang", "oe", "l", "heb", "skr", "syn", "b", "c", "f",
    "comp", "prep", "conj", "pron", "interj", "imp", "pres", "pa", "pr", "var", "zool",
    "bot", "anat", "chem", "med", "math", "mus", "naut", "geol", "astron",
    "physiol", "rom", "eng", "u.s", "u.k", "mt", "ft", "lb", "oz", "cu", "sq", "hr",
}
_BOUNDARY_RE = re.compile(r"([.!?]+[\"')\]]*)\s+(?=[\"'(\[]?[A-Z0-9])")


def split_sentences(text: str):
    """Split a paragraph into sentences: at . ! ? followed by space and a capital/digit, except
    after known abbreviations and single-letter initials."""
    text = normalise(text)
    if not text:
        return []
    out, start = [], 0
    for m in _BOUNDARY_RE.finditer(text):
        end = m.end(1)
        before = text[start:m.start(1)]
        last = before.rsplit(" ", 1)[-1].lstrip("(\"'[").lower()
        if m.group(1).startswith(".") and (last in ABBREVIATIONS or (len(last) == 1 and last.isalpha())
                                           or re.fullmatch(r"(?:[a-z]\.)+[a-z]", last)):
            continue
        s = text[start:end].strip()
        if s:
            out.append(s)
        start = m.end()
    s = text[start:].strip()
    if s:
        out.append(s)
    return out


def chunk_passage(text: str, max_words=MAX_WORDS):
    """A passage as sentence-sized units: the whole if short enough, else its sentences."""
    text = normalise(text)
    if n_words(text) <= max_words and len(split_sentences(text)) <= 1:
        return [text] if text else []
    return split_sentences(text)


def lead(text: str, max_words=PAIR_LONG_MAX) -> str:
    """The first sentences of a passage, up to max_words (at least the first sentence)."""
    out, n = [], 0
    for s in split_sentences(text):
        w = n_words(s)
        if out and n + w > max_words:
            break
        out.append(s)
        n += w
    return " ".join(out)


# ---------------------------------------------------------------- troff

_TROFF_SPECIAL = {
    "em": "\u2014", "en": "\u2013", "hy": "-", "aq": "'", "dq": '"', "lq": "\u201c",
    "rq": "\u201d", "oq": "\u2018", "cq": "\u2019", "bu": "\u2022", "co": "\u00a9", "rg": "\u00ae",
    "tm": "\u2122", "de": "\u00b0", "mu": "\u00d7", "di": "\u00f7", "+-": "\u00b1", "<=": "<=",
    ">=": ">=", "!=": "!=", "->": "->", "<-": "<-", "ga": "`", "ti": "~", "ha": "^", "rs": "\\",
    "sl": "/", "ba": "|", "br": "|", "ul": "_", "lB": "[", "rB": "]", "lC": "{", "rC": "}",
    "Fo": "\u00ab", "Fc": "\u00bb", "fo": "\u2039", "fc": "\u203a", "ss": "\u00df",
}
_ESC_RE = re.compile(
    r"\\(?:"
    r"f(?:\[[^\]]*\]|\(..|.)"        # font
    r"|s[+-]?(?:\d+|\(\d\d|\[\d+\])"  # size
    r"|\*(?:\[[^\]]*\]|\(..|.)"       # string
    r"|\((..)"                        # special char (2)
    r"|\[([^\]]*)\]"                  # special char [name]
    r"|[kn](?:\[[^\]]*\]|\(..|.)"     # marks/registers
    r"|[hvwlLxHSoDRbXYzZ]'[^']*'"     # motions etc.
    r"|(.))"                          # any other single-character escape
)


def _esc(m):
    two, named, one = m.group(1), m.group(2), m.group(3)
    if two is not None:
        return _TROFF_SPECIAL.get(two, "")
    if named is not None:
        return _TROFF_SPECIAL.get(named, "")
    if one is not None:
        return {"-": "-", "e": "\\", "\\": "\\", "~": " ", " ": " ", "0": " ", ".": ".",
                "'": "'", "`": "`", "%": "", "&": "", "|": "", "^": "", "c": "", "/": "",
                ",": "", ":": "", "t": " ", "a": ""}.get(one, "")
    return ""


def troff_inline(text: str) -> str:
    text = re.sub(r'\\".*$', "", text)   # comment
    return _ESC_RE.sub(_esc, text)


def _macro_args(rest: str):
    args, cur, q = [], "", False
    for ch in rest:
        if ch == '"':
            q = not q
        elif ch in " \t" and not q:
            if cur:
                args.append(cur)
            cur = ""
        else:
            cur += ch
    if cur:
        args.append(cur)
    return args


_BREAK_MACROS = {"PP", "LP", "P", "TP", "TQ", "IP", "HP", "br", "sp", "SH", "SS", "RS", "RE",
                 "Pp", "Sh", "Ss", "Bl", "El", "It", "bp", "in", "ti", "ne", "Dl", "D1"}
_TEXT_MACROS = {"B", "I", "SM", "SB", "Nm", "Ar", "Fl", "Cm", "Em", "Sy", "Li", "Pa", "Va", "Fn",
                "Fa", "Ft", "Ev", "Er", "Dv", "Ic", "Xr", "Ql", "Dq", "Sq", "Pq", "Aq", "Ad",
                "An", "Lk", "Mt", "Ms", "Tn", "Ux", "St", "Nx", "Fx", "Bx", "Ox", "At", "Dt"}
_ALT_MACROS = {"BR", "RB", "BI", "IB", "IR", "RI"}


def strip_troff(src: str):
    """troff (man or mdoc) -> (name_pairs, paragraphs).

    name_pairs: [(names, description)] from NAME (`ls \\- list directory contents`) or .Nm/.Nd.
    paragraphs: running text, one string per paragraph; no-fill (.nf/.fi, .EX/.EE) and table
    (.TS/.TE) blocks, comments and the SYNOPSIS section are dropped."""
    paras, cur = [], []
    section = ""
    skip = None
    name_text = []
    nd = None
    nm = []

    def flush():
        if cur:
            t = normalise(" ".join(cur))
            if t:
                if section == "NAME":
                    name_text.append(t)
                elif section not in ("SYNOPSIS", "SEE ALSO", "FILES", "AUTHOR", "AUTHORS",
                                     "COPYRIGHT", "COLOPHON"):
                    paras.append(t)
            cur.clear()

    for raw in src.splitlines():
        line = raw.rstrip()
        if skip:
            if re.match(r"^[.']\s*(%s)\b" % skip, line):
                skip = None
            continue
        if line.startswith(".") or line.startswith("'"):
            m = re.match(r"^[.']\s*([A-Za-z0-9\\]+)\s*(.*)$", line)
            if not m:
                continue
            mac, rest = m.group(1), m.group(2)
            if mac.startswith('\\"') or mac == "\\":
                continue
            if mac in ("nf", "EX", "Bd"):
                flush()
                skip = {"nf": "fi", "EX": "EE", "Bd": "Ed"}[mac]
                continue
            if mac in ("TS", "de", "ig", "eq", "EQ"):
                flush()
                skip = {"TS": "TE", "de": r"\.", "ig": r"\.", "eq": "en", "EQ": "EN"}[mac]
                continue
            if mac in ("SH", "Sh", "SS", "Ss"):
                flush()
                head = normalise(troff_inline(" ".join(_macro_args(rest)))).upper()
                if mac in ("SH", "Sh"):
                    section = head
                continue
            if mac == "Nd":
                nd = normalise(troff_inline(rest))
                continue
            if mac == "Nm" and section == "NAME" and rest:
                nm.append(normalise(troff_inline(rest)))
                continue
            if mac in _BREAK_MACROS:
                flush()
                if mac in ("IP", "TP") and rest:
                    pass
                continue
            if mac in _TEXT_MACROS:
                args = _macro_args(rest)
                if mac == "Xr" and len(args) >= 2:
                    cur.append(troff_inline(f"{args[0]}({args[1]})") + " ".join(args[2:]))
                else:
                    cur.append(troff_inline(" ".join(args)))
                continue
            if mac in _ALT_MACROS:
                cur.append(troff_inline("".join(_macro_args(rest))))
                continue
            continue   # any other request: ignored
        if not line.strip():
            flush()
            continue
        cur.append(troff_inline(line))
    flush()
    pairs = []
    if nd and nm:
        pairs.append((", ".join(nm), nd))
    for t in name_text:
        m = re.match(r"^(.+?)\s+(?:-|\u2013|\u2014)+\s+(.+)$", t)
        if m:
            pairs.append((m.group(1).strip(), m.group(2).strip()))
    return pairs, paras


# ---------------------------------------------------------------- HTML

class _HTMLBlocks(html.parser.HTMLParser):
    BLOCK = {"p", "li", "dd", "dt", "td", "th", "div", "blockquote", "br", "tr", "table", "ul",
             "ol", "dl", "section", "article", "figcaption", "caption", "body"}
    HEAD = {"h1", "h2", "h3", "h4", "h5", "h6", "title"}
    SKIP = {"script", "style", "pre", "nav", "head", "noscript", "svg", "math", "footer",
            "header", "button", "form", "select", "textarea"}

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.blocks, self.buf, self.skip, self.kind = [], [], 0, "p"

    def flush(self):
        t = normalise("".join(self.buf))
        if t:
            self.blocks.append((self.kind, t))
        self.buf, self.kind = [], "p"

    def handle_starttag(self, tag, attrs):
        if tag in self.SKIP:
            self.skip += 1
            return
        a = dict(attrs)
        cls = a.get("class") or ""
        if tag in ("div", "span", "table") and any(k in cls for k in (
                "highlight", "sphinxsidebar", "related", "footer", "navheader", "navfooter",
                "toc", "literallayout", "programlisting", "screen", "synopsis")):
            self.skip += 1
            self._skip_tag = getattr(self, "_skip_tag", []) + [tag]
            return
        if tag in self.BLOCK:
            self.flush()
        elif tag in self.HEAD:
            self.flush()
            self.kind = "h"

    def handle_endtag(self, tag):
        st = getattr(self, "_skip_tag", [])
        if st and tag == st[-1] and self.skip:
            # approximate: a skipped div ends at the next closing tag of its kind
            st.pop()
            self.skip -= 1
            return
        if tag in self.SKIP:
            self.skip = max(0, self.skip - 1)
            return
        if tag in self.BLOCK or tag in self.HEAD:
            self.flush()

    def handle_data(self, data):
        if not self.skip:
            self.buf.append(data)


def html_blocks(src: str):
    p = _HTMLBlocks()
    try:
        p.feed(src)
        p.close()
    except Exception:
        pass
    p.flush()
    return p.blocks


_HEAD_CLEAN_RE = re.compile(r"^(?:[A-Z]?\d+(?:\.\d+)*\.?|Chapter \d+\.?|Appendix [A-Z]\.?)\s+")


def html_units(blocks):
    """Blocks -> (units, pairs): paragraph sentences; heading -> first following paragraph."""
    units, pairs = [], []
    pending = None
    for kind, text in blocks:
        text = text.replace("\u00b6", "").strip()
        if kind == "h":
            h = _HEAD_CLEAN_RE.sub("", text).strip()
            pending = h if 1 <= n_words(h) <= PAIR_SHORT_MAX else None
            if n_words(h) >= MIN_WORDS:
                units.append(h)
            continue
        sents = split_sentences(text)
        units.extend(sents)
        if pending and n_words(text) >= 8:
            pairs.append((pending, lead(text)))
            pending = None
    return units, pairs


# ---------------------------------------------------------------- packages

def dpkg_version(pkg):
    r = subprocess.run(["dpkg-query", "-W", "-f=${Status}\t${Version}", pkg],
                       capture_output=True, text=True)
    if r.returncode != 0 or "install ok installed" not in r.stdout:
        return None
    return r.stdout.split("\t", 1)[1]


def dpkg_files(pkg):
    r = subprocess.run(["dpkg", "-L", pkg], capture_output=True, text=True)
    return sorted(p for p in r.stdout.splitlines() if p and os.path.isfile(p))


def copyright_licence(pkg):
    """The licence names stated in /usr/share/doc/<pkg>/copyright (DEP-5 License: fields), or the
    sentence that states it for free-form files."""
    path = Path("/usr/share/doc") / pkg / "copyright"
    if not path.exists():
        return None
    text = path.read_text(encoding="utf-8", errors="replace")
    names = []
    for m in re.finditer(r"^License:[ \t]*(\S[^\n]*)$", text, re.M):
        n = m.group(1).strip()
        if re.fullmatch(r"[A-Za-z0-9.+_-]+(?:,?\s+(?:or|and|with)\s+[A-Za-z0-9.+_-]+)*", n) \
                and n not in names:
            names.append(n)
    if names:
        return "; ".join(names)
    for pat, name in ((r"PYTHON SOFTWARE FOUNDATION LICENSE", "PSF"),
                      (r"GNU Free Documentation License", "GFDL"),
                      (r"GNU General Public License", "GPL"),
                      (r"public domain", "public domain"),
                      (r"Open Publication License", "Open Publication License"),
                      (r"Permission is granted to make and distribute verbatim copies",
                       "permission to copy and modify with the notice"),
                      (r"BSD|Regents of the University of California", "BSD")):
        if re.search(pat, text, re.I):
            names.append(name)
    return "; ".join(names) if names else "see copyright file"


def ensure_packages(pkgs, allow_install):
    missing = [p for p in pkgs if dpkg_version(p) is None]
    if not missing:
        return True
    if allow_install and os.geteuid() == 0:
        log(f"installing {' '.join(missing)}")
        env = dict(os.environ, DEBIAN_FRONTEND="noninteractive")
        r = subprocess.run(["apt-get", "install", "-y", "--no-install-recommends", *missing],
                           env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if r.returncode != 0:
            subprocess.run(["apt-get", "update"], env=env, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL)
            r = subprocess.run(["apt-get", "install", "-y", "--no-install-recommends", *missing],
                               env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                               text=True)
        if r.returncode == 0:
            return True
        log(r.stderr[-2000:])
    log(f"missing packages: apt-get install -y --no-install-recommends {' '.join(missing)}")
    return False


# ---------------------------------------------------------------- extractors
# Each yields ("u", text) for a unit and ("p", short, long) for a pair.

def _dictd_entries(name):
    import base64  # noqa: F401  (dictd uses its own base64 digits)
    digits = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"
    val = {c: i for i, c in enumerate(digits)}

    def b64(s):
        v = 0
        for c in s:
            v = v * 64 + val[c]
        return v

    raw = gzip.open(f"/usr/share/dictd/{name}.dict.dz").read()   # index offsets are in bytes
    seen = set()
    with open(f"/usr/share/dictd/{name}.index", encoding="utf-8", errors="replace") as f:
        for line in f:
            parts = line.rstrip("\n").split("\t")
            if len(parts) < 3 or parts[0].startswith("00-database") or parts[0].startswith("00database"):
                continue
            off, ln = b64(parts[1]), b64(parts[2])
            if (off, ln) in seen:
                continue
            seen.add((off, ln))
            yield parts[0], raw[off:off + ln].decode("utf-8", "replace")


def _paragraphs(body):
    paras, cur = [], []
    for line in body.splitlines():
        if line.strip():
            cur.append(line.strip())
        elif cur:
            paras.append(" ".join(cur))
            cur = []
    if cur:
        paras.append(" ".join(cur))
    return paras


_BRACES_RE = re.compile(r"[{}]")
_GCIDE_SRC_RE = re.compile(r"\[(?:[^\]]*(?:Webster|WordNet|PJC|Century|Chambers|Sewall|"
                           r"Weekly|Sources|AS|RN|Ja|DC|JW|MW|Dict|Encyc)[^\]]*)\]")


_GCIDE_HEAD_RE = re.compile(r'^[^\\\n]{1,80}?\\[^\\]*\\,?\s*(?:\([^)]*\)\s*)?,?\s*')
_GCIDE_POS_RE = re.compile(r"^(?:(?:n|v|a|adj|adv|prep|conj|pron|interj|t|i|imp|p|pr|pl|sing|vb|"
                           r"superl|compar|obs|pa|&|or|prefix|suffix)\.?[,;]?\s+)+")
_GCIDE_CITE_RE = re.compile(r"\s*--\s*[A-Z][A-Za-z.'& ]{0,40}(?:\s[ivxlcdm]+\.?)?(?:\s?\d+[.,]?)*\s*$")
_GCIDE_DERIV_RE = re.compile(r"--\s*\S*[*\"`]\S*,?\s*(?:(?:n|v|a|adv|t|i)\.\s*)+")


def gcide_clean(p):
    """One GCIDE paragraph -> plain text: no headword/pronunciation, part of speech, bracketed
    etymology or source tags, sense numbers, domain labels, quotation attributions."""
    p = _GCIDE_HEAD_RE.sub("", p, count=1) if "\\" in p[:100] else p
    p = re.sub(r"\[[^\]]*\]", " ", p)                         # etymology, [Obs.], [1913 Webster]
    p = re.sub(r"\([^)]*[\[\]=^~`][^)]*\)", " ", p)           # pronunciation guides
    p = _GCIDE_DERIV_RE.sub(" ", p)
    p = normalise(p)
    for _ in range(3):
        q = _GCIDE_POS_RE.sub("", p)
        q = re.sub(r"^\d+\.\s*", "", q)
        q = re.sub(r"^\((?:[A-Z][A-Za-z.]*\s*(?:&\s*)?)+\)\s*", "", q)   # (Zool.) (Bot.)
        q = re.sub(r"^[-\u2014]+\s*", "", q)
        if q == p:
            break
        p = q
    p = _GCIDE_CITE_RE.sub("", p)
    if "\\" in p or re.search(r"\w\*\w", p):
        return ""
    return p.strip(" ;,")


def extract_gcide():
    for head, entry in _dictd_entries("gcide"):
        first_def = None
        for para in _paragraphs(_BRACES_RE.sub("", entry)):
            if para.lstrip().startswith(("Syn:", "Syn.", "Note:")):
                continue
            p = gcide_clean(para)
            if not p:
                continue
            for s in split_sentences(p):
                yield ("u", s)
            if first_def is None and n_words(p) >= 3:
                first_def = p
        if first_def:
            yield ("p", head, lead(first_def))


def extract_wordnet():
    for name in ("data.noun", "data.verb", "data.adj", "data.adv"):
        with open(f"/usr/share/wordnet/{name}", encoding="utf-8", errors="replace") as f:
            for line in f:
                if line.startswith("  "):
                    continue
                if "|" not in line:
                    continue
                head, gloss = line.split("|", 1)
                parts = head.split()
                n = int(parts[3], 16)
                lemmas = [re.sub(r"\((?:a|p|ip)\)$", "", parts[4 + 2 * i]).replace("_", " ")
                          for i in range(n)]
                gloss = gloss.strip()
                m = re.search(r';\s*"', gloss)
                definition = (gloss[:m.start()] if m else gloss).strip().rstrip(";").strip()
                examples = [e.strip() for e in re.findall(r'"([^"]*)"', gloss) if e.strip()]
                yield ("u", definition)
                for e in examples:
                    yield ("u", e)
                for lem in lemmas[:3]:
                    yield ("p", lem, definition)


def _dictd_prose(name, genre_fix=None):
    def gen():
        for head, entry in _dictd_entries(name):
            lines = entry.split("\n")
            # foldoc lists synonyms before a blank line; jargon has the headword, then grammar
            body = "\n".join(lines[1:])
            body = _BRACES_RE.sub("", body)
            first = None
            for para in _paragraphs(body):
                p = re.sub(r"^<[^>]+>\s*", "", para)                  # foldoc <programming>
                p = re.sub(r"^(?:n|v|adj|adv|vt|vi|interj|pl)\.(?:\s*,\s*\w+\.)*\s*", "", p)
                p = re.sub(r"\(\d{4}-\d{2}-\d{2}\)$", "", p).strip()   # foldoc dates
                p = re.sub(r"^\d+\.\s+", "", p)
                if not p or p.startswith("See also") or p.startswith("Home page"):
                    continue
                for s in chunk_passage(p):
                    yield ("u", s)
                if first is None and n_words(p) >= 4:
                    first = p
            if first:
                yield ("p", head, lead(first))
    return gen


def extract_devil():
    for head, entry in _dictd_entries("devil"):
        body = normalise(entry)
        m = re.match(r"^([A-Z][A-Z' -]+),\s*(?:[a-z]+\.\s*)+(.*)$", body)
        text = m.group(2) if m else body
        for s in chunk_passage(text):
            yield ("u", s)
        if m and n_words(text) >= 3:
            yield ("p", head, lead(text))


def extract_vera():
    for head, entry in _dictd_entries("vera"):
        lines = [l.strip() for l in entry.split("\n") if l.strip()]
        if len(lines) >= 2:
            exp = re.sub(r"\s*\([A-Za-z0-9 ,./-]+\)\s*$", "", lines[1])
            yield ("p", lines[0], exp)
            yield ("u", exp)


def extract_fortunes(packages):
    def gen():
        files = []
        for pkg in packages:
            # English files only: the top directory (translations live in cs/, de/, ...)
            files += [p for p in dpkg_files(pkg) if re.fullmatch(r"/usr/share/games/fortunes/[^/.]+", p)]
        for path in sorted(set(files)):
            text = Path(path).read_text(encoding="utf-8", errors="replace")
            for fort in re.split(r"^%\s*$", text, flags=re.M):
                # drop attribution lines, keep the saying
                body = "\n".join(l for l in fort.splitlines()
                                 if not re.match(r"^\s*(?:--|\u2014)\s*\S", l))
                t = normalise(body)
                if not t:
                    continue
                for s in chunk_passage(t):
                    yield ("u", s)
    return gen


def extract_kjv():
    """The King James Bible, one verse a line from the `bible` program (bible-kjv)."""
    r = subprocess.run(["bible", "-l0", "Gen1:1-Rev22:21"], capture_output=True, text=True,
                       errors="replace", stdin=subprocess.DEVNULL)
    for line in r.stdout.splitlines():
        m = re.match(r"^\s*\d+\s+(.+)$", line)
        if m:
            for u in chunk_passage(m.group(1)):
                yield ("u", u)


def extract_man(packages):
    def gen():
        files = []
        for pkg in packages:
            files += [p for p in dpkg_files(pkg) if p.startswith("/usr/share/man/man")
                      and not os.path.islink(p)]
        for path in sorted(set(files)):
            try:
                op = gzip.open if path.endswith(".gz") else open
                with op(path, "rt", encoding="utf-8", errors="replace") as f:
                    src = f.read()
            except OSError:
                continue
            if src.lstrip().startswith(".so "):
                continue
            pairs, paras = strip_troff(src)
            for names, desc in pairs:
                for name in names.split(","):
                    name = name.strip()
                    if name:
                        yield ("p", name, desc)
                yield ("u", desc)
            for p in paras:
                for s in split_sentences(p):
                    yield ("u", s)
    return gen


def extract_html(packages, path_re, exclude_re=None):
    rx = re.compile(path_re)
    ex = re.compile(exclude_re) if exclude_re else None

    def gen():
        files = []
        for pkg in packages:
            files += [p for p in dpkg_files(pkg) if rx.search(p) and not (ex and ex.search(p))]
        for path in sorted(set(files)):
            op = gzip.open if path.endswith(".gz") else open
            with op(path, "rt", encoding="utf-8", errors="replace") as f:
                src = f.read()
            units, pairs = html_units(html_blocks(src))
            for u in units:
                yield ("u", u)
            for s, l in pairs:
                yield ("p", s, l)
    return gen


def extract_text(packages, path_re):
    rx = re.compile(path_re)

    def gen():
        files = []
        for pkg in packages:
            files += [p for p in dpkg_files(pkg) if rx.search(p)]
        for path in sorted(set(files)):
            op = gzip.open if path.endswith(".gz") else open
            with op(path, "rt", encoding="utf-8", errors="replace") as f:
                src = f.read()
            for para in _paragraphs(src):
                if para.startswith(("*", "-", "|", "+")) or para.endswith(":"):
                    continue
                for s in split_sentences(para):
                    yield ("u", s)
    return gen


APT_LISTS = Path("/var/lib/apt/lists")


def _translation_files():
    return sorted(str(p) for p in APT_LISTS.glob("*_i18n_Translation-en*")
                  if not p.name.endswith(".diff"))


def debian_description_stanzas(allow_update):
    """(package, description lines) from apt's English Translation files (long descriptions);
    these are fetched by `apt-get update -o Acquire::Languages=en` (Debian's Docker images turn
    them off). Falls back to `apt-cache dumpavail` (synopses, and long descriptions where the
    Packages index still carries them)."""
    files = _translation_files()
    if not files and allow_update and os.geteuid() == 0:
        log("fetching apt's English descriptions: apt-get update -o Acquire::Languages=en")
        subprocess.run(["apt-get", "update", "-o", "Acquire::Languages=en"],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        files = _translation_files()
    texts = []
    if files:
        for path in files:
            r = subprocess.run(["/usr/lib/apt/apt-helper", "cat-file", path], capture_output=True,
                               text=True, errors="replace")
            texts.append(r.stdout)
    else:
        log("no English Translation files: descriptions from apt-cache dumpavail only")
        r = subprocess.run(["apt-cache", "dumpavail"], capture_output=True, text=True,
                           errors="replace")
        texts.append(r.stdout)
    DEBIAN_STATE["description_files"] = [os.path.basename(f) for f in files] or ["apt-cache dumpavail"]
    for text in texts:
        for stanza in text.split("\n\n"):
            pkg, desc_lines, in_desc = None, [], False
            for line in stanza.split("\n"):
                if line.startswith("Package:"):
                    pkg = line.split(":", 1)[1].strip()
                    in_desc = False
                elif line.startswith(("Description:", "Description-en:")):
                    desc_lines = [line.split(":", 1)[1].strip()]
                    in_desc = True
                elif in_desc and line.startswith(" "):
                    desc_lines.append(line[1:])
                else:
                    in_desc = False
            if pkg and desc_lines:
                yield pkg, desc_lines


DEBIAN_STATE = {}


def extract_debian_descriptions(allow_update=True):
    seen = set()
    for pkg, desc_lines in debian_description_stanzas(allow_update):
        key = (pkg, "\n".join(desc_lines))
        if key in seen:
            continue
        seen.add(key)
        synopsis = normalise(desc_lines[0])
        paras, cur = [], []
        for l in desc_lines[1:]:
            if l.strip() == ".":
                if cur:
                    paras.append(cur)
                cur = []
            else:
                cur.append(l)
        if cur:
            paras.append(cur)
        texts = []
        for p in paras:
            if any(l.startswith(" ") for l in p):       # verbatim lines: lists, one item a line
                for l in p:
                    item = re.sub(r"^\s*(?:[-*+o]|\d+[.)])\s+", "", l)
                    texts.append(item)
            else:
                texts.append(" ".join(p))
        if synopsis:
            yield ("u", synopsis)
            yield ("p", pkg, synopsis)
        first = None
        for t in texts:
            for s in split_sentences(t):
                yield ("u", s)
            if first is None and n_words(t) >= 6:
                first = t
        if synopsis and first:
            yield ("p", synopsis, lead(first))


# ---------------------------------------------------------------- POD (Perl documentation)

_POD_CODE_RE = re.compile(r"[A-Z]<(?:<+\s(.*?)\s>+|([^<>]*))>", re.S)


def pod_inline(text):
    def rep(m):
        inner = m.group(1) if m.group(1) is not None else m.group(2)
        code = m.group(0)[0]
        if code in "XZ":
            return ""
        if code == "E":
            return {"lt": "<", "gt": ">", "verbar": "|", "sol": "/"}.get(inner, "")
        if code == "L":
            inner = inner.split("|", 1)[0] if "|" in inner else inner.replace("/", " ").strip('"')
        return inner
    for _ in range(4):
        new = _POD_CODE_RE.sub(rep, text)
        if new == text:
            break
        text = new
    return text


def strip_pod(src):
    """POD -> (name_pairs, blocks): NAME line as a pair; headings as ("h", text), ordinary
    paragraphs as ("p", text); verbatim (indented) paragraphs and =begin/=end blocks dropped."""
    pairs, blocks = [], []
    section, skip = "", False
    for para in re.split(r"\n\s*\n", src):
        if not para.strip():
            continue
        if para.startswith("="):
            cmd, _, rest = para[1:].partition(" ")
            cmd = cmd.strip()
            rest = normalise(pod_inline(rest))
            if cmd in ("begin", "for"):
                skip = cmd == "begin"
            elif cmd == "end":
                skip = False
            elif cmd.startswith("head"):
                section = rest.upper()
                blocks.append(("h", rest))
            elif cmd == "item":
                if rest and rest not in ("*", "o") and not rest.isdigit():
                    blocks.append(("h", rest.lstrip("*0123456789. ")))
            continue
        if skip or para[:1] in (" ", "\t"):
            continue
        text = normalise(pod_inline(para))
        if section == "NAME":
            m = re.match(r"^(.+?)\s+-+\s+(.+)$", text)
            if m:
                pairs.append((m.group(1), m.group(2)))
            continue
        blocks.append(("p", text))
    return pairs, blocks


def extract_pod(packages):
    def gen():
        files = []
        for pkg in packages:
            files += [p for p in dpkg_files(pkg) if re.search(r"\.pod(?:\.gz)?$", p)]
        for path in sorted(set(files)):
            op = gzip.open if path.endswith(".gz") else open
            with op(path, "rt", encoding="utf-8", errors="replace") as f:
                src = f.read()
            pairs, blocks = strip_pod(src)
            for s, l in pairs:
                yield ("p", s, l)
                yield ("u", l)
            units, hp = html_units(blocks)
            for u in units:
                yield ("u", u)
            for s, l in hp:
                yield ("p", s, l)
    return gen


# ---------------------------------------------------------------- sources

def _apt_source_info():
    r = subprocess.run(["apt-cache", "policy"], capture_output=True, text=True)
    lines = [l.strip() for l in r.stdout.splitlines() if "release " in l and "o=Debian" in l]
    return sorted(set(lines))


ALLOW_INSTALL = [True]

SOURCES = [
    # name, packages, genre, licence summary (read from the copyright file), extractor
    ("gcide", ["dict-gcide"], "dictionary", "GPL-2+ (GCIDE; its Webster 1913 text is public domain)",
     lambda: extract_gcide()),
    ("wordnet", ["wordnet-base"], "dictionary", "WordNet 3.0 licence (permissive)",
     lambda: extract_wordnet()),
    ("devil", ["dict-devil"], "literary", "public domain", lambda: extract_devil()),
    ("foldoc", ["dict-foldoc"], "computing", "GFDL-1.1+", lambda: _dictd_prose("foldoc")()),
    ("jargon", ["dict-jargon"], "computing", "public domain (Jargon File 4.4.7)",
     lambda: _dictd_prose("jargon")()),
    ("vera", ["dict-vera"], "computing", "GFDL-1.1+ (no invariant sections)",
     lambda: extract_vera()),
    ("debian-descriptions", [], "software",
     "each package's own (Debian archive index: Packages + Translation-en)",
     lambda: extract_debian_descriptions(ALLOW_INSTALL[0])),
    ("manpages", ["manpages", "manpages-dev"], "manual", "Linux man-pages: mixed free (see file)",
     lambda: extract_man(["manpages", "manpages-dev"])()),
    ("perl-doc", ["perl-doc"], "manual", "Artistic or GPL-1+ (Perl)",
     lambda: extract_pod(["perl-doc"])()),
    ("python-doc", ["python3-doc", "python3.11-doc"], "reference", "PSF-2.0 (Python docs)",
     lambda: extract_html(["python3.11-doc"], r"/html/.*\.html$",
                          r"/(genindex|py-modindex|search|_static|_sources)")()),
    ("debian-reference", ["debian-reference-en"], "reference", "GPL-2+",
     lambda: extract_html(["debian-reference-en"], r"\.en\.html$")()),
    ("debian-handbook", ["debian-handbook"], "reference", "GPL-2+ or CC-BY-SA-3.0",
     lambda: extract_html(["debian-handbook"], r"/html/en-US/.*\.html$")()),
    ("debian-policy", ["debian-policy", "developers-reference"], "reference",
     "GPL-2+ (policy); GPL-2 (developers-reference)",
     lambda: extract_html(["debian-policy", "developers-reference"], r"\.html$",
                          r"(genindex|search)\.html$")()),
    ("gnu-standards", ["gnu-standards"], "reference", "GFDL-1.3+",
     lambda: extract_html(["gnu-standards"], r"\.html$")()),
    ("debian-faq", ["debian-faq"], "reference", "permissive (verbatim and modified copies with notice)",
     lambda: extract_html(["debian-faq"], r"\.en\.html$")()),
    ("postgresql-doc", ["postgresql-doc-15"], "reference", "PostgreSQL licence (permissive)",
     lambda: extract_html(["postgresql-doc-15"], r"/html/.*\.html$", r"(bookindex|release-)")()),
    ("git-doc", ["git-doc"], "reference", "GPL-2",
     lambda: extract_html(["git-doc"], r"\.html$")()),
    ("sqlite-doc", ["sqlite3-doc"], "reference", "public domain",
     lambda: extract_html(["sqlite3-doc"], r"\.html$", r"(releaselog|changes|chronology)")()),
    ("gimp-help", ["gimp-help-en"], "reference", "GFDL-1.2+ (no invariant sections)",
     lambda: extract_html(["gimp-help-en"], r"/help/en/.*\.html$")()),
    ("fortunes", ["fortunes", "fortunes-min", "fortunes-debian-hints", "fortune-anarchism"],
     "literary", "BSD (fortune-mod); BSD-3-clause (debian-hints); public domain (anarchism)",
     lambda: extract_fortunes(["fortunes-min", "fortunes", "fortunes-debian-hints",
                               "fortune-anarchism"])()),
    ("kjv-bible", ["bible-kjv", "bible-kjv-text"], "literary",
     "text public domain (outside the UK); package GPL-2+",
     lambda: extract_kjv()),
]


# ---------------------------------------------------------------- exclusion

SHINGLE = 8   # words: a unit sharing any run of this many words with an evaluation text is dropped


def text_shingles(key: str):
    """Hashes of the SHINGLE-word runs of an exclusion key (none if it is shorter)."""
    w = key.split()
    return {hash(" ".join(w[i:i + SHINGLE])) for i in range(len(w) - SHINGLE + 1)}


def load_exclusions(root: Path, shingles=None):
    """Exclusion keys from every evaluation text under root; (keys, counts per file). With a set
    as `shingles`, also collects the hashes of every SHINGLE-word run of those texts."""
    keys, per_file = set(), {}
    if not root.is_dir():
        return keys, per_file
    for path in sorted(root.rglob("*")):
        if not path.is_file():
            continue
        before = len(keys)
        texts = []
        if path.suffix == ".jsonl":
            with open(path, encoding="utf-8") as f:
                for line in f:
                    if not line.strip():
                        continue
                    row = json.loads(line)
                    for k in ("title", "text"):
                        v = row.get(k)
                        if isinstance(v, str) and v.strip():
                            texts.append(v)
                            texts.extend(split_sentences(v))
                            texts.extend(re.split(r"\s+\.\s+", v))   # Cranfield: " . " spaced
            if row is not None and "title" in row:
                for r in []:
                    pass
        elif path.suffix == ".tsv" and "qrels" not in path.parts:
            with open(path, encoding="utf-8") as f:
                header = f.readline().rstrip("\n").split("\t")
                cols = [i for i, h in enumerate(header) if h.startswith("sentence")]
                for line in f:
                    cells = line.rstrip("\n").split("\t")
                    for i in cols:
                        if i < len(cells) and cells[i].strip():
                            texts.append(cells[i])
        else:
            continue
        for t in texts:
            k = exclusion_key(t)
            if k:
                keys.add(k)
                if shingles is not None:
                    shingles.update(text_shingles(k))
        per_file[str(path.relative_to(root))] = len(keys) - before
    return keys, per_file


# ---------------------------------------------------------------- main

def run(args):
    t0 = time.time()
    out = Path(os.path.expanduser(args.outdir)).resolve()
    repo = Path(__file__).resolve().parents[2]
    if out == repo or repo in out.parents:
        sys.exit(f"refusing to write inside the repository: {out}")
    out.mkdir(parents=True, exist_ok=True)
    datasets = Path(args.datasets).resolve()
    excl_sh = set()
    excl, excl_files = load_exclusions(datasets, excl_sh)
    log(f"exclusion keys: {len(excl)} texts, {len(excl_sh)} {SHINGLE}-word runs, "
        f"from {len(excl_files)} files under {datasets}")

    def excluded(text):
        """'exact' if the text is an evaluation text, 'overlap' if it shares a SHINGLE-word run
        with one, else None."""
        k = exclusion_key(text)
        if k in excl:
            return "exact"
        if excl_sh and not excl_sh.isdisjoint(text_shingles(k)):
            return "overlap"
        return None
    wanted = set(args.sources.split(",")) if args.sources else None
    ALLOW_INSTALL[0] = not args.no_install

    units = {}   # dedup_key -> (genre, text, source)
    pairs = {}   # (short key, long key) -> (genre, short, long, source)
    manifest_sources = []
    dropped_units = dropped_pairs = 0
    dropped_examples = {"exact": [], "overlap": []}
    excl_kinds = {"exact": 0, "overlap": 0}
    for name, pkgs, genre, licence, fn in SOURCES:
        if wanted and name not in wanted:
            continue
        ts = time.time()
        if pkgs and not ensure_packages(pkgs, not args.no_install):
            manifest_sources.append({"source": name, "packages": pkgs, "skipped": "not installed"})
            continue
        n_raw = n_units = n_pairs = n_dup = n_rej = n_excl_u = n_excl_p = 0
        for item in fn():
            if item[0] == "u":
                n_raw += 1
                t = normalise(item[1])
                if not acceptable(t):
                    n_rej += 1
                    continue
                why = excluded(t)
                if why:
                    n_excl_u += 1
                    excl_kinds[why] += 1
                    if len(dropped_examples[why]) < 15:
                        dropped_examples[why].append(t)
                    continue
                k = dedup_key(t)
                if k in units:
                    n_dup += 1
                    continue
                units[k] = (genre, t, name)
                n_units += 1
            else:
                s, l = normalise(item[1]), normalise(item[2])
                if not s or not acceptable(l, min_words=2, max_words=PAIR_LONG_MAX + 20) \
                        or n_words(s) > PAIR_SHORT_MAX or dedup_key(s) == dedup_key(l):
                    continue
                if (n_words(s) >= MIN_WORDS and excluded(s)) or excluded(l):
                    n_excl_p += 1
                    continue
                k = (dedup_key(s), dedup_key(l))
                if k in pairs:
                    continue
                pairs[k] = (genre, s, l, name)
                n_pairs += 1
        versions = {p: dpkg_version(p) for p in pkgs}
        entry = {"source": name, "packages": pkgs, "versions": versions, "genre": genre,
                 "licence": licence,
                 "licence_in_copyright_file": {p: copyright_licence(p) for p in pkgs},
                 "raw_units": n_raw, "units": n_units, "pairs": n_pairs,
                 "rejected_length_or_charset": n_rej, "duplicates": n_dup,
                 "excluded_units": n_excl_u, "excluded_pairs": n_excl_p,
                 "seconds": round(time.time() - ts, 1)}
        if not pkgs:
            entry["apt_sources"] = _apt_source_info()
            entry["description_files"] = DEBIAN_STATE.get("description_files")
        manifest_sources.append(entry)
        dropped_units += n_excl_u
        dropped_pairs += n_excl_p
        log(f"{name:20s} units {n_units:9,d}  pairs {n_pairs:8,d}  dup {n_dup:8,d}  "
            f"rejected {n_rej:8,d}  excluded {n_excl_u}/{n_excl_p}  {entry['seconds']} s")

    rows = sorted((g, t) for g, t, _ in units.values())
    with open(out / "units.tsv", "w", encoding="utf-8") as f:
        for g, t in rows:
            f.write(f"{g}\t{t}\n")
    prow = sorted((g, s, l) for g, s, l, _ in pairs.values())
    with open(out / "pairs.tsv", "w", encoding="utf-8") as f:
        for g, s, l in prow:
            f.write(f"{g}\t{s}\t{l}\n")
    by_genre = {}
    for g, _ in rows:
        by_genre[g] = by_genre.get(g, 0) + 1
    pairs_by_genre = {}
    for g, _, _ in prow:
        pairs_by_genre[g] = pairs_by_genre.get(g, 0) + 1
    words = [n_words(t) for _, t in rows]
    words.sort()
    manifest = {
        "command": " ".join([os.path.basename(sys.argv[0])] + sys.argv[1:]),
        "settings": {"min_words": MIN_WORDS, "max_words": MAX_WORDS,
                     "pair_short_max": PAIR_SHORT_MAX, "pair_long_max": PAIR_LONG_MAX,
                     "min_alpha": MIN_ALPHA},
        "sources": manifest_sources,
        "totals": {"units": len(rows), "pairs": len(prow), "genres": by_genre,
                   "pairs_by_genre": pairs_by_genre,
                   "words_median": words[len(words) // 2] if words else 0,
                   "words_p90": words[int(len(words) * 0.9)] if words else 0,
                   "share_under_40_words": round(sum(w < 40 for w in words) / max(1, len(words)), 4)},
        "exclusion": {"datasets": str(datasets), "keys": len(excl), "keys_per_file": excl_files,
                      "shingle_words": SHINGLE, "shingles": len(excl_sh),
                      "dropped_units": dropped_units, "dropped_pairs": dropped_pairs,
                      "dropped_units_exact": excl_kinds["exact"],
                      "dropped_units_overlap": excl_kinds["overlap"],
                      "examples": dropped_examples},
        "seconds": round(time.time() - t0, 1),
    }
    with open(out / "manifest.json", "w", encoding="utf-8") as f:
        json.dump(manifest, f, indent=1, ensure_ascii=False)
        f.write("\n")
    log(f"units {len(rows):,d} ({by_genre}), pairs {len(prow):,d}, excluded {dropped_units} units "
        f"/ {dropped_pairs} pairs, {manifest['seconds']} s -> {out}")


# ---------------------------------------------------------------- self-test

def self_test():
    fails = []

    def check(name, got, want):
        if got != want:
            fails.append(f"{name}: got {got!r}, want {want!r}")

    check("normalise", normalise(" a\tb\n\x07c\u200b  d "), "a b c d")
    check("dedup_key", dedup_key("  Hello   World "), "hello world")
    check("exclusion_key", exclusion_key("What  are the Laws ?"), "what are the laws")
    check("split", split_sentences("Dr. Smith arrived, e.g. at noon. He left! Did he? Yes."),
          ["Dr. Smith arrived, e.g. at noon.", "He left!", "Did he?", "Yes."])
    check("split initials", split_sentences("J. R. R. Tolkien wrote it. It sold well."),
          ["J. R. R. Tolkien wrote it.", "It sold well."])
    check("split quote", split_sentences('He said "stop." Then he went.'),
          ['He said "stop."', "Then he went."])
    check("acceptable short", acceptable("two words"), False)
    check("acceptable code", acceptable("x = f(a[1], b[2]) + 3;"), False)
    check("acceptable", acceptable("This is a plain sentence."), True)
    check("lead", lead("One two three. Four five six.", max_words=4), "One two three.")
    src = "\n".join([
        '.\\" a comment',
        ".TH LS 1",
        ".SH NAME",
        "ls \\- list directory contents",
        ".SH SYNOPSIS",
        ".B ls",
        "[\\fIOPTION\\fR]...",
        ".SH DESCRIPTION",
        ".PP",
        "List information about the \\fBFILE\\fPs (the current directory by default).",
        "Sort entries alphabetically if none of",
        ".BR \\-cftuvSUX \" nor \" \\-\\-sort",
        "is specified.",
        ".nf",
        "code block that must go",
        ".fi",
        ".PP",
        "Mandatory arguments \\(em long and short \\(aqoptions\\(aq.",
    ])
    pairs, paras = strip_troff(src)
    check("troff name", pairs, [("ls", "list directory contents")])
    check("troff paras", paras, [
        "List information about the FILEs (the current directory by default). Sort entries "
        "alphabetically if none of -cftuvSUX nor --sort is specified.",
        "Mandatory arguments \u2014 long and short 'options'."])
    mdoc = ".Sh NAME\n.Nm cat\n.Nd concatenate and print files\n.Sh DESCRIPTION\nThe utility reads files.\n"
    pairs, paras = strip_troff(mdoc)
    check("mdoc name", pairs, [("cat", "concatenate and print files")])
    check("mdoc paras", paras, ["The utility reads files."])
    blocks = html_blocks("<html><head><title>x</title></head><body><h2>1.2. Getting started"
                         "\u00b6</h2><p>Install the <code>foo</code> package first. Then run it "
                         "as root with care please.</p><pre>$ code</pre><script>x()</script>"
                         "<ul><li>An item of a list here.</li></ul></body></html>")
    units, hp = html_units(blocks)
    check("html units", units, ["Install the foo package first.",
                                "Then run it as root with care please.",
                                "An item of a list here."])
    check("html pairs", hp, [("Getting started", "Install the foo package first. Then run it as "
                                                 "root with care please.")])
    pod = ("=head1 NAME\n\nperlfoo - how to foo in Perl\n\n=head1 DESCRIPTION\n\nUse "
           "B<foo> with C<< $x >> and L<perlfunc/open> here.\n\n    my $code = 1;\n\n"
           "=begin html\n\n<p>x</p>\n\n=end html\n")
    pairs, blocks = strip_pod(pod)
    check("pod name", pairs, [("perlfoo", "how to foo in Perl")])
    check("pod blocks", blocks, [("h", "NAME"), ("h", "DESCRIPTION"),
                                 ("p", "Use foo with $x and perlfunc open here.")])
    # exclusion filter on a made-up evaluation collection
    import tempfile
    with tempfile.TemporaryDirectory() as d:
        root = Path(d)
        (root / "sim").mkdir()
        (root / "ir").mkdir()
        (root / "sim" / "pairs.tsv").write_text(
            "sentence1\tsentence2\tscore\nA cat sits on the mat.\tA dog runs.\t1.0\n")
        (root / "ir" / "corpus.jsonl").write_text(json.dumps(
            {"_id": "1", "title": "Wing flutter at speed", "text": "We measured flutter at high "
             "speed. It grows with speed."}) + "\n")
        keys, _ = load_exclusions(root)
        check("excl sentence", exclusion_key("a cat  sits on the MAT") in keys, True)
        check("excl doc sentence", exclusion_key("It grows with speed.") in keys, True)
        check("excl title", exclusion_key("wing flutter at speed") in keys, True)
        check("excl other", exclusion_key("A cat sits on a mat.") in keys, False)
        check("excl score", "1 0" in keys, False)
        sh = set()
        load_exclusions(root, sh)
        check("shingle hit", bool(sh & text_shingles("as we said we measured flutter at high speed "
                                                     "it grows")), True)
        check("shingle miss", bool(sh & text_shingles("we measured drag at high speed it grows "
                                                      "with")), False)
        check("shingle short", text_shingles("a b c"), set())
    if fails:
        for f in fails:
            print("FAIL", f)
        return 1
    print("self-test: all checks passed")
    return 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("outdir", nargs="?", default="~/.cache/sift-train/broad")
    ap.add_argument("--datasets", default=str(Path(__file__).resolve().parents[3] / "shared" / "datasets"))
    ap.add_argument("--sources", help="comma-separated subset of: " + ",".join(s[0] for s in SOURCES))
    ap.add_argument("--no-install", action="store_true", help="never call apt-get")
    ap.add_argument("--self-test", action="store_true")
    args = ap.parse_args()
    if args.self_test:
        sys.exit(self_test())
    run(args)


if __name__ == "__main__":
    main()
