#!/usr/bin/env python3
"""Code-size figures for a Swift source tree (standard library only).

Prints three figures for the given directory (default: Sources/Sift):

  * the longest function: `func`, `init`, `deinit`, `subscript` and computed properties
    (`var name: T { ... }`), measured in lines from the line of the keyword to the line of
    the matching closing brace, both included;
  * the largest file, in lines;
  * the number of public types: every `public` or `open` `struct`, `class`, `enum`,
    `protocol`, `actor` or `typealias` declaration, nested ones included.

Comments (`//`, nested `/* */`) and string literals (`"..."`, multi-line `\"\"\"`, raw
`#"..."#`, with interpolations) are blanked before anything is counted, so a brace or a
keyword inside them never counts.

With --check the script exits 1 when a figure is over its limit (80 lines per function,
400 lines per file, 40 public types by default; see --help), and lists the offenders.
"""

import argparse
import os
import re
import sys
from dataclasses import dataclass, field

DEFAULT_ROOT = "Sources/Sift"
DEFAULT_MAX_FUNCTION = 80
DEFAULT_MAX_FILE = 400
DEFAULT_MAX_PUBLIC_TYPES = 40

# ---------------------------------------------------------------------------------------------
# Lexing: blank comments and string literals, keep the line structure.
# ---------------------------------------------------------------------------------------------


def strip_comments_and_strings(source):
    """Returns `source` with every comment and the contents of every string literal replaced
    by spaces (newlines kept), so that line numbers and brace structure of the code survive.

    String delimiters are kept as a bare `""` so that the code around them still tokenizes;
    the code inside an interpolation `\\( ... )` is kept as code (it is balanced).
    """
    out = []
    i = 0
    n = len(source)
    # Stack of contexts. Each entry is one of:
    #   ("code", paren_depth)        -- code; paren_depth counts '(' inside an interpolation
    #   ("string", hashes, multiline)
    # The bottom entry is ("code", None): top-level code, no interpolation to close.
    stack = [["code", None]]

    def blank(text):
        return "".join(ch if ch == "\n" else " " for ch in text)

    while i < n:
        ctx = stack[-1]
        c = source[i]
        if ctx[0] == "code":
            if source.startswith("//", i):
                j = source.find("\n", i)
                if j < 0:
                    j = n
                out.append(blank(source[i:j]))
                i = j
                continue
            if source.startswith("/*", i):
                depth = 0
                j = i
                while j < n:
                    if source.startswith("/*", j):
                        depth += 1
                        j += 2
                    elif source.startswith("*/", j):
                        depth -= 1
                        j += 2
                        if depth == 0:
                            break
                    else:
                        j += 1
                out.append(blank(source[i:j]))
                i = j
                continue
            if c == "#" or c == '"':
                m = re.compile(r'(#*)("""|")').match(source, i)
                if m and (c == '"' or m.group(1)):
                    hashes = len(m.group(1))
                    multiline = m.group(2) == '"""'
                    out.append('"' + " " * (m.end() - i - 1))
                    stack.append(["string", hashes, multiline])
                    i = m.end()
                    continue
                if c == "#" and source.startswith("/", i + 1):
                    # Extended regex literal #/.../#: blank up to the closing /#.
                    m2 = re.compile(r"(#+)/").match(source, i)
                    closing = "/" + m2.group(1)
                    j = source.find(closing, m2.end())
                    j = n if j < 0 else j + len(closing)
                    out.append(blank(source[i:j]))
                    i = j
                    continue
            if ctx[1] is not None:
                # Inside an interpolation: track parentheses to find its end.
                if c == "(":
                    ctx[1] += 1
                elif c == ")":
                    if ctx[1] == 0:
                        stack.pop()
                        out.append(")")
                        i += 1
                        continue
                    ctx[1] -= 1
            out.append(c)
            i += 1
            continue

        # Inside a string literal.
        _, hashes, multiline = ctx
        terminator = ('"""' if multiline else '"') + "#" * hashes
        if source.startswith(terminator, i):
            out.append('"' + " " * (len(terminator) - 1))
            stack.pop()
            i += len(terminator)
            continue
        escape = "\\" + "#" * hashes
        if source.startswith(escape, i):
            j = i + len(escape)
            if j < n and source[j] == "(":
                # Interpolation: the code inside is kept.
                out.append(" " * (j - i) + "(")
                stack.append(["code", 0])
                i = j + 1
                continue
            if hashes == 0 and j < n:
                # An escaped character (\" \\ \n ...): skip it, keep newlines.
                out.append(blank(source[i : j + 1]))
                i = j + 1
                continue
        if c == "\n" and not multiline:
            # An unterminated single-line string: give up on it at the end of the line.
            stack.pop()
            out.append("\n")
            i += 1
            continue
        out.append("\n" if c == "\n" else " ")
        i += 1
    return "".join(out)


TOKEN_RE = re.compile(
    r"""
      (?P<nl>\n)
    | (?P<ws>[ \t\r\f\v]+)
    | (?P<ident>`[^`\n]*`|[A-Za-z_\u0080-\U0010FFFF][A-Za-z0-9_\u0080-\U0010FFFF]*|\$[A-Za-z0-9_]+)
    | (?P<number>[0-9][A-Za-z0-9_.]*)
    | (?P<punct>[{}()\[\];,:@.])
    | (?P<op>[=\-+!*%<>&|^~?/]+)
    | (?P<other>.)
    """,
    re.VERBOSE,
)


@dataclass
class Token:
    kind: str
    text: str
    line: int


def tokenize(code):
    tokens = []
    line = 1
    for m in TOKEN_RE.finditer(code):
        kind = m.lastgroup
        if kind == "nl":
            tokens.append(Token("nl", "\n", line))
            line += 1
        elif kind == "ws":
            continue
        else:
            tokens.append(Token(kind, m.group(), line))
    return tokens


# ---------------------------------------------------------------------------------------------
# Structure: functions with bodies, public types.
# ---------------------------------------------------------------------------------------------

FUNCTION_KEYWORDS = {"func", "init", "deinit", "subscript"}
TYPE_KEYWORDS = {"struct", "class", "enum", "protocol", "actor", "extension"}
# A new declaration ends a pending bodiless one (a protocol requirement, say).
DECLARATION_KEYWORDS = FUNCTION_KEYWORDS | TYPE_KEYWORDS | {
    "var", "let", "case", "typealias", "associatedtype", "import", "macro", "operator",
    "precedencegroup",
}
MODIFIERS = {
    "public", "open", "internal", "fileprivate", "private", "package", "final", "indirect",
    "nonisolated", "static", "override", "required", "convenience", "mutating", "nonmutating",
    "lazy", "weak", "unowned", "dynamic", "distributed", "optional", "consuming", "borrowing",
    "isolated", "prefix", "postfix", "infix", "rethrows",
}
# What may follow the modifier `class` when it is not a type declaration (`class func`).
CLASS_MEMBER_FOLLOWERS = MODIFIERS | {"func", "var", "let", "subscript", "init"}
PUBLIC_TYPE_KEYWORDS = {"struct", "class", "enum", "protocol", "actor", "typealias"}


@dataclass
class Function:
    path: str
    line: int
    end_line: int
    kind: str
    name: str

    @property
    def length(self):
        return self.end_line - self.line + 1


@dataclass
class PublicType:
    path: str
    line: int
    kind: str
    name: str


@dataclass
class FileFigures:
    path: str
    lines: int
    functions: list = field(default_factory=list)
    public_types: list = field(default_factory=list)
    # The line of a brace that has no partner (0: none), e.g. with `#if` branches that open a
    # body each: the file's function lengths are then not to be trusted.
    unbalanced: int = 0


def _skip_attribute(tokens, i):
    """`tokens[i]` is '@': returns the index after the attribute (name and argument list)."""
    i += 1
    if i < len(tokens) and tokens[i].kind == "ident":
        i += 1
        if i < len(tokens) and tokens[i].text == "(":
            depth = 0
            while i < len(tokens):
                if tokens[i].text == "(":
                    depth += 1
                elif tokens[i].text == ")":
                    depth -= 1
                    if depth == 0:
                        return i + 1
                i += 1
    return i


def _next_significant(tokens, i):
    while i < len(tokens) and tokens[i].kind == "nl":
        i += 1
    return i


def _public_type_at(tokens, i):
    """`tokens[i]` is `public` or `open`: returns (kind, name, line) if it starts a type."""
    j = i + 1
    n = len(tokens)
    while True:
        j = _next_significant(tokens, j)
        if j >= n:
            return None
        t = tokens[j]
        if t.text == "@":
            j = _skip_attribute(tokens, j)
            continue
        if t.text == "(":
            # public(set), open(set)...: a property, never a type.
            return None
        if t.text == "class":
            k = _next_significant(tokens, j + 1)
            if k < n and tokens[k].kind == "ident" and tokens[k].text not in CLASS_MEMBER_FOLLOWERS:
                return ("class", tokens[k].text, t.line)
            j += 1
            continue
        if t.text in PUBLIC_TYPE_KEYWORDS:
            k = _next_significant(tokens, j + 1)
            name = tokens[k].text if k < n else "?"
            return (t.text, name, t.line)
        if t.text in MODIFIERS:
            j += 1
            continue
        return None


def _function_name(tokens, i):
    """A readable name for the declaration at `tokens[i]`: `name(label:label:)`."""
    keyword = tokens[i].text
    n = len(tokens)
    j = i + 1
    if keyword == "func":
        j = _next_significant(tokens, j)
        base = tokens[j].text if j < n else "?"
        j += 1
    elif keyword == "init":
        base = "init"
        while j < n and tokens[j].text in ("?", "!"):
            base += tokens[j].text
            j += 1
    else:
        base = keyword
    if keyword == "deinit":
        return base
    # Skip a generic parameter clause.
    if j < n and tokens[j].kind == "op" and tokens[j].text.startswith("<"):
        depth = 0
        while j < n:
            text = tokens[j].text
            if tokens[j].kind == "op":
                depth += text.count("<") - text.count(">")
                if depth <= 0 and ">" in text:
                    j += 1
                    break
            j += 1
    if j >= n or tokens[j].text != "(":
        return base
    labels = []
    depth = 0
    expect_label = True
    while j < n:
        text = tokens[j].text
        if text in ("(", "[", "{"):
            depth += 1
            if depth == 1:
                expect_label = True
        elif text in (")", "]", "}"):
            depth -= 1
            if depth == 0:
                break
        elif text == "," and depth == 1:
            expect_label = True
        elif depth == 1 and expect_label and tokens[j].kind == "ident":
            k = _next_significant(tokens, j + 1)
            if k < n and tokens[k].text == ":":
                labels.append(text)
            elif k < n and tokens[k].kind == "ident":
                m = _next_significant(tokens, k + 1)
                if m < n and tokens[m].text == ":":
                    labels.append(text)
            expect_label = False
        elif tokens[j].kind != "nl":
            expect_label = False
        j += 1
    return base + "(" + "".join(label + ":" for label in labels) + ")"


def analyze_source(source, path="<source>"):
    """Returns the FileFigures of one Swift source text."""
    code = strip_comments_and_strings(source)
    tokens = tokenize(code)
    figures = FileFigures(path=path, lines=len(source.splitlines()))

    # Each open brace on the stack: (kind, name, line, paren depth outside it), kind being
    # "function", "var" (a computed property), "type", or None for any other brace (a closure,
    # a statement's body, an accessor...).
    stack = []
    paren_depth = 0
    # A declaration whose body has not been seen yet: (kind, name, line, brace depth).
    pending = None
    n = len(tokens)

    def context_names():
        return [entry[1] for entry in stack if entry[0] == "type"]

    for i, t in enumerate(tokens):
        text = t.text
        prev = tokens[i - 1] if i > 0 else None
        if t.kind == "nl":
            # A computed property's body starts on the line of its declaration or the next.
            if pending and pending[0] == "var" and paren_depth == 0:
                k = _next_significant(tokens, i)
                if k >= n or tokens[k].text != "{":
                    pending = None
            continue
        is_keyword = t.kind == "ident" and (prev is None or prev.text != ".") and paren_depth == 0
        if t.kind == "ident" and (prev is None or prev.text != "."):
            if text in ("public", "open"):
                found = _public_type_at(tokens, i)
                if found:
                    kind, name, line = found
                    qualified = ".".join(context_names() + [name])
                    figures.public_types.append(PublicType(path, line, kind, qualified))
        if is_keyword and text in FUNCTION_KEYWORDS:
            pending = ("function", _function_name(tokens, i), t.line, len(stack))
            continue
        if is_keyword and text in TYPE_KEYWORDS:
            k = _next_significant(tokens, i + 1)
            if text == "class" and k < n and tokens[k].text in CLASS_MEMBER_FOLLOWERS:
                continue  # `class func`, `class var`: a modifier.
            name = tokens[k].text if k < n else "?"
            if text == "extension":
                # extension Foo.Bar: the whole dotted name.
                m = k + 1
                while m + 1 < n and tokens[m].text == "." and tokens[m + 1].kind == "ident":
                    name += "." + tokens[m + 1].text
                    m += 2
            pending = ("type", name, t.line, len(stack))
            continue
        if is_keyword and text == "var":
            k = _next_significant(tokens, i + 1)
            name = tokens[k].text if k < n else "?"
            pending = ("var", name, t.line, len(stack))
            continue
        if is_keyword and text in DECLARATION_KEYWORDS:
            pending = None
            continue
        if is_keyword and text == "in" and pending and pending[0] == "var":
            pending = None  # `for var x in xs {`: a loop, not a computed property.
            continue
        if text in ("(", "["):
            paren_depth += 1
        elif text in (")", "]"):
            paren_depth = max(0, paren_depth - 1)
        elif text == "=" and paren_depth == 0 and pending and pending[0] == "var":
            pending = None  # A stored property with an initial value.
        elif text == ";" and paren_depth == 0:
            pending = None
        elif text == "{":
            if pending and paren_depth == 0 and pending[3] == len(stack):
                stack.append((pending[0], pending[1], pending[2], paren_depth))
                pending = None
            else:
                stack.append((None, None, t.line, paren_depth))
            paren_depth = 0
        elif text == "}":
            if pending and pending[3] == len(stack):
                pending = None  # The end of the enclosing scope: it had no body.
            if not stack:
                figures.unbalanced = figures.unbalanced or t.line
            else:
                kind, name, line, outer_depth = stack.pop()
                paren_depth = outer_depth
                if kind in ("function", "var"):
                    qualified = ".".join(context_names() + [name])
                    figures.functions.append(Function(path, line, t.line, kind, qualified))
    if stack and not figures.unbalanced:
        figures.unbalanced = stack[-1][2]
    figures.functions.sort(key=lambda f: f.line)
    return figures


# ---------------------------------------------------------------------------------------------
# Reporting.
# ---------------------------------------------------------------------------------------------


def swift_files(root):
    if os.path.isfile(root):
        return [root]
    paths = []
    for directory, subdirs, files in os.walk(root):
        subdirs[:] = sorted(d for d in subdirs if not d.startswith(".") and not d.endswith(".docc"))
        for name in sorted(files):
            if name.endswith(".swift"):
                paths.append(os.path.join(directory, name))
    return paths


def analyze_tree(root):
    results = []
    for path in swift_files(root):
        with open(path, encoding="utf-8") as f:
            results.append(analyze_source(f.read(), path))
    return results


def main(argv=None):
    parser = argparse.ArgumentParser(
        description="Longest function, largest file and number of public types of a Swift tree.")
    parser.add_argument("root", nargs="?", default=DEFAULT_ROOT,
                        help="directory (or file) to measure (default: %(default)s)")
    parser.add_argument("--check", action="store_true",
                        help="exit 1 when a figure is over its limit")
    parser.add_argument("--max-function-lines", type=int, default=DEFAULT_MAX_FUNCTION,
                        help="longest function allowed, in lines (default: %(default)s)")
    parser.add_argument("--max-file-lines", type=int, default=DEFAULT_MAX_FILE,
                        help="largest file allowed, in lines (default: %(default)s)")
    parser.add_argument("--max-public-types", type=int, default=DEFAULT_MAX_PUBLIC_TYPES,
                        help="public types allowed (default: %(default)s)")
    parser.add_argument("--list-public-types", action="store_true",
                        help="list every public type (listed anyway when over the limit)")
    parser.add_argument("--top", type=int, default=5,
                        help="longest functions and files listed when within limits (default: %(default)s)")
    parser.add_argument("--self-test", action="store_true",
                        help="run the unit tests in scripts/tests and exit")
    args = parser.parse_args(argv)

    if args.self_test:
        import unittest
        here = os.path.dirname(os.path.abspath(__file__))
        suite = unittest.defaultTestLoader.discover(os.path.join(here, "tests"),
                                                    pattern="test_code_metrics.py",
                                                    top_level_dir=os.path.join(here, "tests"))
        result = unittest.TextTestRunner(verbosity=1).run(suite)
        return 0 if result.wasSuccessful() else 1

    if args.root == DEFAULT_ROOT and not os.path.exists(args.root):
        # Run from elsewhere: the repository's Sources/Sift, beside this script's folder.
        args.root = os.path.relpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", DEFAULT_ROOT))
    if not os.path.exists(args.root):
        print(f"code-metrics: {args.root}: no such file or directory", file=sys.stderr)
        return 2
    results = analyze_tree(args.root)
    if not results:
        print(f"code-metrics: no Swift files under {args.root}", file=sys.stderr)
        return 2
    functions = sorted((f for r in results for f in r.functions), key=lambda f: (-f.length, f.path, f.line))
    files = sorted(results, key=lambda r: (-r.lines, r.path))
    public_types = [t for r in results for t in r.public_types]

    for r in results:
        if r.unbalanced:
            print(f"code-metrics: warning: {r.path}:{r.unbalanced}: unbalanced braces (after comments "
                  "and strings were skipped); its function lengths may be wrong", file=sys.stderr)
    long_functions = [f for f in functions if f.length > args.max_function_lines]
    large_files = [r for r in files if r.lines > args.max_file_lines]
    too_many_types = len(public_types) > args.max_public_types

    def mark(over):
        return "OVER" if over else "ok"

    print(f"{args.root}: {len(results)} Swift files, {len(functions)} functions")
    if functions:
        f = functions[0]
        print(f"  longest function  {f.length:5d} lines  (limit {args.max_function_lines}, "
              f"{mark(long_functions)})  {f.path}:{f.line}  {f.name}")
    else:
        print(f"  longest function      0 lines  (limit {args.max_function_lines}, ok)")
    r = files[0]
    print(f"  largest file      {r.lines:5d} lines  (limit {args.max_file_lines}, "
          f"{mark(large_files)})  {r.path}")
    print(f"  public types      {len(public_types):5d}        (limit {args.max_public_types}, "
          f"{mark(too_many_types)})")

    if long_functions:
        print(f"\nfunctions over {args.max_function_lines} lines ({len(long_functions)}):")
        for f in long_functions:
            print(f"  {f.length:5d}  {f.path}:{f.line}  {f.name}")
    elif args.top > 0:
        print(f"\nlongest functions:")
        for f in functions[: args.top]:
            print(f"  {f.length:5d}  {f.path}:{f.line}  {f.name}")
    if large_files:
        print(f"\nfiles over {args.max_file_lines} lines ({len(large_files)}):")
        for r in large_files:
            print(f"  {r.lines:5d}  {r.path}")
    elif args.top > 0:
        print(f"\nlargest files:")
        for r in files[: args.top]:
            print(f"  {r.lines:5d}  {r.path}")
    if too_many_types or args.list_public_types:
        title = f"over the limit of {args.max_public_types}" if too_many_types else "all"
        print(f"\npublic types ({len(public_types)}, {title}):")
        for t in public_types:
            print(f"  {t.path}:{t.line}  {t.kind} {t.name}")

    if args.check and (long_functions or large_files or too_many_types):
        print("\ncode-metrics: over the limits", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    import signal
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # `| head` ends the listing quietly.
    sys.exit(main())
