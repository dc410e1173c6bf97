"""The pages' JavaScript stays small enough to find one's way in (docs/web-pages.md, "Star Dice's
table", its modules): every Star Dice module (`js/**/stardice*.js`) under 400 lines and none of
its functions over 80.

Functions are found by a brace-matching scan, not a parser: strings, template literals, regular
expressions and comments are blanked first, then every `function` declaration or expression,
every arrow function with a block body and every method (`name(...) {`) is measured from the line
it starts on to the line of its closing brace. The other pages' files are scanned too and listed
by `python tests/web/test_js_sizes.py` (the limits are checked only for Star Dice's).
"""

from __future__ import annotations

import re
import sys
from dataclasses import dataclass
from pathlib import Path

JS_ROOT = Path(__file__).resolve().parents[2] / "src" / "playtable" / "web" / "static" / "js"
MAX_MODULE_LINES = 400
MAX_FUNCTION_LINES = 80

# After these a `/` starts a regular expression, not a division.
_REGEX_AFTER = set("(,=:[!&|?{};+-*%<>~^") | {""}
_REGEX_KEYWORDS = {
    "return", "typeof", "case", "do", "else", "in", "of", "new", "delete", "void", "throw", "yield", "await",
}
# `name (...) {` with these names is a statement, not a method.
_NOT_METHODS = {"if", "for", "while", "switch", "catch", "with", "function", "return", "typeof", "await"}


@dataclass(frozen=True)
class JsFunction:
    name: str
    first_line: int
    last_line: int

    @property
    def lines(self) -> int:
        return self.last_line - self.first_line + 1


def _skip_string(src: str, i: int, quote: str) -> int:
    """The index after the string literal that starts at `i`."""
    i += 1
    while i < len(src) and src[i] != quote and src[i] != "\n":
        i += 2 if src[i] == "\\" else 1
    return i + 1


def _skip_regex(src: str, i: int) -> int:
    """The index after the regular expression literal that starts at `i` (its flags included)."""
    i += 1
    in_class = False
    while i < len(src) and src[i] != "\n":
        c = src[i]
        if c == "\\":
            i += 2
            continue
        if c == "[":
            in_class = True
        elif c == "]":
            in_class = False
        elif c == "/" and not in_class:
            i += 1
            break
        i += 1
    while i < len(src) and (src[i].isalnum() or src[i] == "_"):
        i += 1
    return i


def _previous_token(code: list[str]) -> str:
    """The last significant character, or the last word, of the code blanked so far."""
    text = "".join(code[-40:]).rstrip()
    if not text:
        return ""
    word = re.search(r"[\w$]+$", text)
    return word.group(0) if word else text[-1]


def blank_literals(src: str) -> str:
    """`src` with every comment, string, template literal (its `${}` code kept) and regular
    expression replaced by spaces, newlines kept, so braces and lines can be counted in code."""
    out: list[str] = []
    templates: list[int] = []  # for each open `${`, the brace depth it opened at
    depth = 0
    i = 0

    def blank(start: int, end: int) -> None:
        out.extend("\n" if c == "\n" else " " for c in src[start:end])

    while i < len(src):
        c = src[i]
        two = src[i:i + 2]
        if two == "//":
            end = src.find("\n", i)
            end = len(src) if end < 0 else end
        elif two == "/*":
            end = src.find("*/", i + 2)
            end = len(src) if end < 0 else end + 2
        elif c in "'\"":
            end = _skip_string(src, i, c)
        elif c == "`" or (c == "}" and templates and templates[-1] == depth):
            if c == "}":
                templates.pop()
            end = i + 1
            while end < len(src) and src[end] != "`":
                if src[end] == "\\":
                    end += 2
                    continue
                if src[end:end + 2] == "${":
                    templates.append(depth)
                    end += 2
                    break
                end += 1
            else:
                end += 1
        elif c == "/" and (_previous_token(out) in _REGEX_AFTER or _previous_token(out) in _REGEX_KEYWORDS):
            end = _skip_regex(src, i)
        else:
            if c == "{":
                depth += 1
            elif c == "}":
                depth -= 1
            out.append(c)
            i += 1
            continue
        blank(i, min(end, len(src)))
        i = end
    return "".join(out)


def _closing(code: str, open_at: int, pair: str) -> int:
    """The index of the bracket closing the one at `open_at` (-1 if it never closes)."""
    depth = 0
    for j in range(open_at, len(code)):
        if code[j] == pair[0]:
            depth += 1
        elif code[j] == pair[1]:
            depth -= 1
            if depth == 0:
                return j
    return -1


def _body_after(code: str, paren_at: int) -> int:
    """The index of the `{` opening a body right after the parameter list at `paren_at`, or -1."""
    close = _closing(code, paren_at, "()")
    if close < 0:
        return -1
    rest = re.match(r"\s*\{", code[close + 1:])
    return close + rest.end() if rest else -1


_STARTS = re.compile(
    r"\bfunction\b\s*\*?\s*(?P<fname>[\w$]*)\s*(?P<fparen>\()"
    r"|(?P<arrow>=>)\s*(?P<abrace>\{)"
    r"|(?<![\w$.])(?P<mname>[A-Za-z_$][\w$]*)\s*(?P<mparen>\()"
)


def functions(src: str) -> list[JsFunction]:
    """Every function of a JavaScript source with a block body, with its first and last line."""
    code = blank_literals(src)
    found: dict[int, JsFunction] = {}  # by the index of the body's `{`
    for m in _STARTS.finditer(code):
        if m.group("fparen") is not None:
            name, body = m.group("fname") or "(anonymous)", _body_after(code, m.start("fparen"))
        elif m.group("arrow") is not None:
            name, body = "(arrow)", m.start("abrace")
        else:
            name = m.group("mname")
            if name in _NOT_METHODS or re.search(r"\bfunction\s*\*?\s*$", code[:m.start()]):
                continue
            body = _body_after(code, m.start("mparen"))
        if body < 0 or body in found:
            continue
        end = _closing(code, body, "{}")
        if end < 0:
            continue
        first = code.count("\n", 0, m.start()) + 1
        found[body] = JsFunction(name, first, code.count("\n", 0, end) + 1)
    return sorted(found.values(), key=lambda f: f.first_line)


def oversized(path: Path) -> list[str]:
    """What in one file is over the limits, in words (nothing: it is within them)."""
    src = path.read_text(encoding="utf-8")
    where = path.relative_to(JS_ROOT)
    problems = []
    lines = src.count("\n") + (0 if src.endswith("\n") else 1)
    if lines > MAX_MODULE_LINES:
        problems.append(f"{where}: {lines} lines (at most {MAX_MODULE_LINES})")
    for f in functions(src):
        if f.lines > MAX_FUNCTION_LINES:
            limit = f"(at most {MAX_FUNCTION_LINES})"
            problems.append(f"{where}:{f.first_line}: {f.name} is {f.lines} lines {limit}")
    return problems


def star_dice_modules() -> list[Path]:
    return sorted(JS_ROOT.rglob("stardice*.js"))


def test_star_dice_modules_stay_small() -> None:
    modules = star_dice_modules()
    assert len(modules) >= 5, f"the Star Dice modules were not found under {JS_ROOT}"
    problems = [p for path in modules for p in oversized(path)]
    assert not problems, "Star Dice modules over the limits:\n" + "\n".join(problems)


def test_the_scan_measures_every_form_of_function() -> None:
    body = "".join(f"  total += {i};\n" for i in range(79))
    shorter = "".join(f"  total += {i};\n" for i in range(78))
    src = (
        "// a comment with function fake() {\n"
        f"export function long(a) {{\n{body}}}\n"
        f"const arrow = (x) => {{\n{shorter}}};\n"
        "class Box {\n"
        f"  draw(g, {{ x, y }}) {{\n{body}{body}  }}\n"
        "  if (ready) {}\n"
        "}\n"
        "const text = `${ok ? `{` : '}'}`; const re = /[{(]/g;\n"
        "function short() { return '}'; }\n"
    )
    found = {f.name: f.lines for f in functions(src)}
    assert found == {"long": 81, "(arrow)": 80, "draw": 160, "short": 1}


def test_the_scan_blanks_literals_but_keeps_lines() -> None:
    src = "a = '{'; b = \"}\"; // {\n/* {\n */ c = `x${ {d: 1}.d }y`; e = f / 2 / g; h = /}/;\n"
    code = blank_literals(src)
    assert code.count("\n") == src.count("\n")
    assert code.count("{") == code.count("}") == 1  # only the object literal inside `${}`
    assert "f / 2 / g" in code


if __name__ == "__main__":  # every page's file over the limits, Star Dice's or not
    for path in sorted(JS_ROOT.rglob("*.js")):
        for problem in oversized(path):
            print(problem)
    sys.exit(0)
