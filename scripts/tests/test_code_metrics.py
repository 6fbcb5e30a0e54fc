"""Unit tests of scripts/code-metrics.py on made-up Swift snippets.

Run: python3 -m unittest discover -s scripts/tests   (or scripts/code-metrics.py --self-test)
"""

import importlib.util
import os
import unittest

_HERE = os.path.dirname(os.path.abspath(__file__))
_spec = importlib.util.spec_from_file_location(
    "code_metrics", os.path.join(_HERE, "..", "code-metrics.py"))
cm = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(cm)


def functions(source):
    return {f.name: f.length for f in cm.analyze_source(source).functions}


def public_types(source):
    return [(t.kind, t.name) for t in cm.analyze_source(source).public_types]


class StrippingTests(unittest.TestCase):
    def test_line_structure_is_kept(self):
        source = 'let a = "x{y"\n/* {\n } */ let b = 1 // }\n'
        stripped = cm.strip_comments_and_strings(source)
        self.assertEqual(source.count("\n"), stripped.count("\n"))
        self.assertNotIn("{", stripped)
        self.assertNotIn("}", stripped)
        self.assertIn("let b = 1", stripped)

    def test_nested_block_comment(self):
        stripped = cm.strip_comments_and_strings("/* a /* { */ } */ x")
        self.assertEqual(stripped.strip(), "x")

    def test_escaped_quote_and_backslash(self):
        stripped = cm.strip_comments_and_strings(r'f("a\"{", "\\") {')
        self.assertEqual(stripped.count("{"), 1)

    def test_interpolation_is_code(self):
        stripped = cm.strip_comments_and_strings(r'"a \(b.map { "}" }) c" {')
        self.assertEqual(stripped.count("{"), 2)
        self.assertEqual(stripped.count("}"), 1)

    def test_raw_string(self):
        stripped = cm.strip_comments_and_strings('let r = #"a "quoted" { \\( }"# + ##"x"#}"## {')
        self.assertEqual(stripped.count("{"), 1)
        self.assertEqual(stripped.count("}"), 0)

    def test_raw_string_interpolation(self):
        stripped = cm.strip_comments_and_strings('#"\\#(f { 1 }) }"#')
        self.assertEqual(stripped.count("{"), 1)
        self.assertEqual(stripped.count("}"), 1)

    def test_multiline_string(self):
        source = 'let s = """\n  func f() {\n  "quoted" }\n  """\nlet t = 1\n'
        stripped = cm.strip_comments_and_strings(source)
        self.assertNotIn("func", stripped)
        self.assertNotIn("}", stripped)
        self.assertIn("let t = 1", stripped)

    def test_hash_in_string_is_not_raw(self):
        stripped = cm.strip_comments_and_strings('a.contains("#") {\n}')
        self.assertEqual(stripped.count("{"), 1)
        self.assertEqual(stripped.count("}"), 1)

    def test_comment_markers_in_strings(self):
        stripped = cm.strip_comments_and_strings('let u = "http://x/*" ; func g() {}')
        self.assertIn("func g() {}", stripped)


class FunctionTests(unittest.TestCase):
    def test_span_from_keyword_to_closing_brace(self):
        source = (
            "struct S {\n"            # 1
            "    func f(\n"           # 2
            "        a: Int,\n"       # 3
            "        b: Int\n"        # 4
            "    ) -> Int {\n"        # 5
            "        a + b\n"         # 6
            "    }\n"                 # 7
            "}\n")
        self.assertEqual(functions(source), {"S.f(a:b:)": 6})

    def test_braces_in_comments_and_strings_do_not_count(self):
        source = (
            "func f() {\n"
            '    let s = "}}}"\n'
            "    // }\n"
            "    /* } */\n"
            '    let t = """\n'
            "    }\n"
            '    """\n'
            "}\n"
            "func g() {}\n")
        self.assertEqual(functions(source), {"f()": 8, "g()": 1})

    def test_init_deinit_subscript_and_computed_property(self):
        source = (
            "final class C {\n"
            "    init?(x: Int) {\n"
            "        self.init()\n"
            "    }\n"
            "    deinit {\n"
            "    }\n"
            "    subscript(_ i: Int) -> Int {\n"
            "        get { i }\n"
            "        set {}\n"
            "    }\n"
            "    var total: Int {\n"
            "        1\n"
            "    }\n"
            "    var stored = [1].map { $0 }\n"
            "    lazy var table: [Int] = {\n"
            "        []\n"
            "    }()\n"
            "    static func == (l: C, r: C) -> Bool { true }\n"
            "}\n")
        self.assertEqual(functions(source), {
            "C.init?(x:)": 3, "C.deinit": 2, "C.subscript(_:)": 4, "C.total": 3,
            "C.==(l:r:)": 1,
        })

    def test_protocol_requirements_have_no_body(self):
        source = (
            "protocol P {\n"
            "    func a()\n"
            "    func b() -> Int\n"
            "    var c: Int { get }\n"
            "    init(x: Int)\n"
            "}\n"
            "extension P {\n"
            "    func a() {\n"
            "    }\n"
            "}\n")
        self.assertEqual(functions(source), {"P.c": 1, "P.a()": 2})

    def test_default_argument_closure_and_nested_function(self):
        source = (
            "func outer(f: () -> Void = { print(1) }) {\n"
            "    func inner() {\n"
            "        [1].forEach { _ in }\n"
            "    }\n"
            "    inner()\n"
            "}\n")
        self.assertEqual(functions(source), {"outer(f:)": 6, "inner()": 3})

    def test_init_references_are_not_declarations(self):
        source = "func f() {\n    let xs = [1].map(String.init)\n    _ = S.init(a: 1)\n}\n"
        self.assertEqual(functions(source), {"f()": 4})

    def test_generic_function_with_where_clause(self):
        source = ("func f<T: Equatable, U>(_ t: T, other u: [U: T]) -> T where U: Hashable {\n"
                  "    t\n"
                  "}\n")
        self.assertEqual(functions(source), {"f(_:other:)": 3})

    def test_for_var_loop_is_not_a_property(self):
        source = "func f(xs: [Int]) {\n    for var x in xs {\n        x += 1\n    }\n}\n"
        self.assertEqual(functions(source), {"f(xs:)": 5})

    def test_unbalanced_braces_are_reported(self):
        source = "#if os(Linux)\nfunc f() {\n#else\nfunc f() {\n#endif\n}\n"
        self.assertEqual(cm.analyze_source(source).unbalanced, 2)  # the brace never closed
        self.assertEqual(cm.analyze_source("func f() {}\n}\n").unbalanced, 2)
        self.assertEqual(cm.analyze_source("func f() {}\n").unbalanced, 0)

    def test_class_func(self):
        source = "open class K {\n    open class func make() -> K {\n        K()\n    }\n}\n"
        self.assertEqual(functions(source), {"K.make()": 3})


class PublicTypeTests(unittest.TestCase):
    def test_counts_public_and_open_types_nested_included(self):
        source = (
            "public struct A {\n"
            "    public enum Kind { case x }\n"
            "    struct Internal {}\n"
            "    public typealias Row = Int\n"
            "    public private(set) var count = 0\n"
            "    public static func make() -> A { A() }\n"
            "}\n"
            "@frozen public indirect enum E { case e }\n"
            "open class K {\n"
            "    open class func make() {}\n"
            "    public class var shared: K { K() }\n"
            "}\n"
            "public final class F {}\n"
            "public protocol P {}\n"
            "public actor Act {}\n"
            "public extension A {}\n"
            "internal struct I {}\n"
            "struct J { public struct Inner {} }\n")
        self.assertEqual(public_types(source), [
            ("struct", "A"), ("enum", "A.Kind"), ("typealias", "A.Row"), ("enum", "E"),
            ("class", "K"), ("class", "F"), ("protocol", "P"), ("actor", "Act"),
            ("struct", "J.Inner"),
        ])

    def test_comments_and_strings_do_not_count(self):
        source = (
            "// public struct Commented {}\n"
            "/* public class Block {} */\n"
            'let s = "public enum InString {}"\n'
            'let m = """\n'
            "public protocol InMultiline {}\n"
            '"""\n'
            "/// public actor InDocComment\n"
            "public struct Real {}\n")
        self.assertEqual(public_types(source), [("struct", "Real")])

    def test_types_in_extensions_are_qualified(self):
        source = "extension Outer.Middle {\n    public struct Leaf {}\n}\n"
        self.assertEqual(public_types(source), [("struct", "Outer.Middle.Leaf")])


class ReportTests(unittest.TestCase):
    def setUp(self):
        import tempfile
        self.directory = tempfile.TemporaryDirectory()
        root = self.directory.name
        with open(os.path.join(root, "Long.swift"), "w") as f:
            f.write("func long() {\n" + "    _ = 1\n" * 10 + "}\n")
        with open(os.path.join(root, "Types.swift"), "w") as f:
            f.write("public struct A {}\npublic struct B {}\n")

    def tearDown(self):
        self.directory.cleanup()

    def run_main(self, *args):
        import contextlib
        import io
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = cm.main([self.directory.name, *args])
        return code, out.getvalue()

    def test_within_limits(self):
        code, out = self.run_main("--check")
        self.assertEqual(code, 0)
        self.assertIn("longest function     12 lines", out)
        self.assertIn("largest file         12 lines", out)
        self.assertIn("public types          2", out)

    def test_over_each_limit(self):
        self.assertEqual(self.run_main("--check", "--max-function-lines", "11")[0], 1)
        self.assertEqual(self.run_main("--check", "--max-file-lines", "11")[0], 1)
        code, out = self.run_main("--check", "--max-public-types", "1")
        self.assertEqual(code, 1)
        self.assertIn("struct B", out)

    def test_without_check_always_succeeds(self):
        self.assertEqual(self.run_main("--max-public-types", "0")[0], 0)


if __name__ == "__main__":
    unittest.main()
