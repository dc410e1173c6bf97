"""The layout holds (docs/architecture.md): no module imports a package above its floor or a
sibling package on its own floor, no game imports another game, no import circle joins two
modules, and nothing outside a game reaches past its public face (the names its `__init__`
exports in `__all__`) into one of its modules.

Imports are read with `ast` from the source, so every import counts: module-level, inside
functions (a lazy import still ties the two modules together) and under `TYPE_CHECKING` (a
type-only import is still a dependency of the code that reads it, and hiding a circle behind it
is exactly what this test is meant to stop). Each failure is one line naming the import.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

SRC = Path(__file__).resolve().parent.parent / "src"
ROOT = "playtable"

FLOORS: dict[str, int] = {
    "core": 0,
    "games": 1,
    "agents": 2, "tableinput": 2,
    "lab": 3, "rl": 3, "tui": 3, "web": 3,
    "cli": 4,
}
"""cli -> web / tui / lab / rl -> agents / tableinput -> games -> core (docs/architecture.md)."""
TOP = 5
"""`playtable/__main__.py` sits above everything (it runs the CLI)."""
ROOT_FLOOR = -1
"""`playtable/__init__.py` (the version) sits below everything: anything may read it, and it may
import nothing of playtable."""


def module_name(path: Path) -> str:
    parts = list(path.relative_to(SRC).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def all_modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted((SRC / ROOT).rglob("*.py"))}


def imports_of(name: str, path: Path, known: set[str]) -> Iterator[tuple[int, str]]:
    """(line, imported playtable module) for every import in the file, at any depth."""
    is_package = path.name == "__init__.py"
    package = name if is_package else name.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == ROOT:
                    yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base_parts = package.split(".")
                base_parts = base_parts[: len(base_parts) - (node.level - 1)]
                base = ".".join(base_parts + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            if base.split(".")[0] != ROOT:
                continue
            for alias in node.names:
                sub = f"{base}.{alias.name}"
                # `from package import module` imports the module; `from module import name`
                # imports the module itself
                yield node.lineno, sub if sub in known else base


def floor_of(module: str) -> tuple[int, str]:
    """(floor, package) of a module: `playtable.games.troll.rules` -> (1, "games")."""
    parts = module.split(".")
    if module == ROOT:
        return ROOT_FLOOR, ROOT
    if len(parts) < 2 or parts[1] not in FLOORS:
        return TOP, ""
    return FLOORS[parts[1]], parts[1]


def graph() -> dict[str, list[tuple[int, str]]]:
    modules = all_modules()
    known = set(modules)
    return {name: [(line, target) for line, target in imports_of(name, path, known)
                   if target != name]
            for name, path in modules.items()}


def layer_violations(edges: dict[str, list[tuple[int, str]]], where: bool = True) -> list[str]:
    """One line per import that breaks the floors: `path:line: module imports target, why`."""
    paths = all_modules() if where else {}
    out = []
    for source, targets in sorted(edges.items()):
        floor, package = floor_of(source)
        here = str(paths[source].relative_to(SRC.parent)) if where else source
        for line, target in targets:
            tfloor, tpackage = floor_of(target)
            if tpackage == package and package != "games":
                continue
            if package == "games" and tpackage == "games":
                sgame, tgame = source.split(".")[2:3], target.split(".")[2:3]
                if sgame and tgame and sgame != tgame:
                    out.append(f"{here}:{line}: {source} imports {target}: one game imports "
                               "another")
                continue
            if tfloor > floor:
                out.append(f"{here}:{line}: {source} imports {target}, a floor above its own")
            elif tfloor == floor and floor != TOP:
                out.append(f"{here}:{line}: {source} imports {target}, a sibling package on "
                           "its own floor")
    return out


def game_of(module: str) -> str:
    """The game a module belongs to (`playtable.games.troll.rules` -> "troll"), or ""."""
    parts = module.split(".")
    return parts[2] if len(parts) > 2 and parts[1] == "games" else ""


def boundary_violations(edges: dict[str, list[tuple[int, str]]], where: bool = True) -> list[str]:
    """One line per import of a game's own module (`playtable.games.<id>.<module>`) from outside
    that game: front ends, the lab, agents, input devices and the command line see a game only
    through the protocol, the registry and its public face (`from playtable.games.<id> import
    name`). `core/registry.py` names each game's `game` module as text, not as an import."""
    paths = all_modules() if where else {}
    out = []
    for source, targets in sorted(edges.items()):
        here = str(paths[source].relative_to(SRC.parent)) if where else source
        for line, target in targets:
            game = game_of(target)
            if game and target.count(".") > 2 and game_of(source) != game:
                out.append(f"{here}:{line}: {source} imports {target}, a module inside the "
                           f"{game} game; import the name from playtable.games.{game} (its "
                           "__all__) instead")
    return list(dict.fromkeys(out))  # `from m import a, b` is one import, named once


def names_past_the_face() -> list[str]:
    """One line per name that a module outside a game imports from the game's package but its
    `__all__` does not export (a module of the game is `boundary_violations`' to name)."""
    faces: dict[str, set[str]] = {}
    for init in sorted((SRC / ROOT / "games").glob("*/__init__.py")):
        exported: set[str] = set()
        for node in ast.parse(init.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.Assign) and any(
                    isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets):
                exported = set(ast.literal_eval(node.value))
        faces[f"{ROOT}.games.{init.parent.name}"] = exported
    out = []
    modules = all_modules()
    for name, path in modules.items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if (isinstance(node, ast.ImportFrom) and not node.level and node.module in faces
                    and game_of(node.module) != game_of(name)):
                for alias in node.names:
                    if (alias.name not in faces[node.module]
                            and f"{node.module}.{alias.name}" not in modules):
                        out.append(f"{path.relative_to(SRC.parent)}:{node.lineno}: {name} imports "
                                   f"{alias.name} from {node.module}, which its __all__ does not "
                                   "export")
    return out


def cycles(edges: dict[str, list[tuple[int, str]]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan), each sorted."""
    succ = {m: sorted({t for _, t in ts if t in edges}) for m, ts in edges.items()}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in succ[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                component.append(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for v in sorted(succ):
        if v not in index:
            visit(v)
    return found


def describe_cycle(component: list[str], edges: dict[str, list[tuple[int, str]]]) -> str:
    """One line: the component's modules and the imports that tie them."""
    members = set(component)
    ties = dict.fromkeys(f"{src.rpartition('.')[2]}:{line}->{dst.rpartition('.')[2]}"
                         for src in component for line, dst in edges[src] if dst in members)
    return f"import circle among {', '.join(component)} ({'; '.join(ties)})"


def test_the_parser_sees_every_kind_of_import(tmp_path: Path) -> None:
    """The checker's own reading: function-level, TYPE_CHECKING and relative imports count."""
    code = (
        "from typing import TYPE_CHECKING\n"
        "import playtable.core.chance\n"
        "if TYPE_CHECKING:\n    from playtable.lab import runner\n"
        "def f() -> None:\n    from playtable.tui.menu import x\n"
        "from . import sibling\n"
    )
    path = tmp_path / "mod.py"
    path.write_text(code)
    known = {"playtable.lab.runner", "playtable.games.troll.sibling"}
    found = sorted(t for _, t in imports_of("playtable.games.troll.mod", path, known))
    assert found == ["playtable.core.chance", "playtable.games.troll.sibling",
                     "playtable.lab.runner", "playtable.tui.menu"]


def test_the_checks_catch_what_they_are_for() -> None:
    """A made-up graph: an upward import, a sibling import, a game importing a game, a circle."""
    fake = {
        "playtable.games.troll.rules": [(3, "playtable.lab.runner")],
        "playtable.tui.menu": [(4, "playtable.lab.stats")],
        "playtable.games.wizard.bots": [(5, "playtable.games.troll.rules")],
        "playtable.core.a": [(1, "playtable.core.b")],
        "playtable.core.b": [(2, "playtable.core.a")],
    }
    assert [line.split(": ", 1)[1] for line in layer_violations(fake, where=False)] == [
        "playtable.games.troll.rules imports playtable.lab.runner, a floor above its own",
        "playtable.games.wizard.bots imports playtable.games.troll.rules: one game imports another",
        "playtable.tui.menu imports playtable.lab.stats, a sibling package on its own floor",
    ]
    assert cycles(fake) == [["playtable.core.a", "playtable.core.b"]]
    assert describe_cycle(["playtable.core.a", "playtable.core.b"], fake) == (
        "import circle among playtable.core.a, playtable.core.b (a:1->b; b:2->a)")


def test_the_boundary_check_names_each_reach_into_a_game() -> None:
    """A made-up graph: a front end and the lab reaching into game modules fail, one line each;
    the game's public face, core, and a game's own modules importing each other pass."""
    fake = {
        "playtable.web.server.live": [(7, "playtable.games.stardice.live_match"),
                                      (8, "playtable.games.stardice")],
        "playtable.lab.claims": [(9, "playtable.games.troll.cards")],
        "playtable.games.troll.claims": [(3, "playtable.games.troll.cards"),
                                         (4, "playtable.core.protocol")],
        "playtable.tui.rotator": [(5, "playtable.games.rotator")],
    }
    assert [line.split(": ", 1)[1] for line in boundary_violations(fake, where=False)] == [
        "playtable.lab.claims imports playtable.games.troll.cards, a module inside the troll game;"
        " import the name from playtable.games.troll (its __all__) instead",
        "playtable.web.server.live imports playtable.games.stardice.live_match, a module inside the"
        " stardice game; import the name from playtable.games.stardice (its __all__) instead",
    ]


def test_every_game_has_a_public_face() -> None:
    """Each game's `__init__` exports a deliberate `__all__`, and every name in it exists."""
    import importlib

    for init in sorted((SRC / ROOT / "games").glob("*/__init__.py")):
        package = importlib.import_module(f"{ROOT}.games.{init.parent.name}")
        exported = getattr(package, "__all__", None)
        assert exported, f"{package.__name__} has no __all__"
        missing = [name for name in exported if not hasattr(package, name)]
        assert not missing, f"{package.__name__}.__all__ names what it lacks: {missing}"
    games = {p.name for p in (SRC / ROOT / "games").iterdir() if p.is_dir() and p.name != "__pycache__"}
    faces = {p.parent.name for p in (SRC / ROOT / "games").glob("*/__init__.py")}
    assert games == faces, f"games without a public face (__init__.py): {sorted(games - faces)}"


def test_nothing_outside_a_game_reaches_into_its_modules() -> None:
    problems = boundary_violations(graph()) + names_past_the_face()
    assert not problems, "\n" + "\n".join(problems)


def test_every_floor_is_known() -> None:
    """A new package must be placed on a floor (here and in docs/architecture.md)."""
    packages = {p.name for p in (SRC / ROOT).iterdir()
                if p.is_dir() and (p / "__init__.py").exists()}
    assert packages <= set(FLOORS), f"packages on no floor: {sorted(packages - set(FLOORS))}"


def test_no_import_runs_upward_or_sideways() -> None:
    problems = layer_violations(graph())
    assert not problems, "\n" + "\n".join(problems)


def test_no_import_circles() -> None:
    edges = graph()
    problems = [describe_cycle(c, edges) for c in cycles(edges)]
    assert not problems, "\n" + "\n".join(problems)


MAX_CLASS_LINES = 400
MAX_FUNCTION_LINES = 80
"""The web app's bounds (docs/architecture.md, "The server's rooms"): a class a concern, small
enough to read at once, and no function past a screen or two."""
BOUNDED = SRC / ROOT / "web"


def oversized(root: Path) -> list[str]:
    """One line per class over `MAX_CLASS_LINES` or function (method, nested function) over
    `MAX_FUNCTION_LINES` in the Python files under `root`, measured from its `def`/`class` line
    (decorators apart) to its last line."""
    out = []
    for path in sorted(root.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.ClassDef):
                kind, bound = "class", MAX_CLASS_LINES
            elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                kind, bound = "function", MAX_FUNCTION_LINES
            else:
                continue
            assert node.end_lineno is not None
            lines = node.end_lineno - node.lineno + 1
            if lines > bound:
                out.append(f"{path.relative_to(root)}:{node.lineno}: {kind} {node.name} has {lines} "
                           f"lines (at most {bound})")
    return out


def test_the_size_check_catches_what_it_is_for(tmp_path: Path) -> None:
    """A made-up module: a class one line over its bound, a nested function one line over its
    own, and a function exactly at the bound (allowed)."""
    body = "\n".join(f"    x{i} = {i}" for i in range(MAX_CLASS_LINES))
    inner = "\n".join(f"        y{i} = {i}" for i in range(MAX_FUNCTION_LINES))
    at_bound = "\n".join(f"    z{i} = {i}" for i in range(MAX_FUNCTION_LINES - 1))
    (tmp_path / "big.py").write_text(
        f"class Big:\n{body}\n\n\ndef outer():\n    def inner():\n{inner}\n\n\n"
        f"def fits():\n{at_bound}\n")
    assert oversized(tmp_path) == [
        f"big.py:1: class Big has {MAX_CLASS_LINES + 1} lines (at most {MAX_CLASS_LINES})",
        f"big.py:{MAX_CLASS_LINES + 4}: function outer has {MAX_FUNCTION_LINES + 2} lines "
        f"(at most {MAX_FUNCTION_LINES})",
        f"big.py:{MAX_CLASS_LINES + 5}: function inner has {MAX_FUNCTION_LINES + 1} lines "
        f"(at most {MAX_FUNCTION_LINES})",
    ]


def test_no_class_or_function_of_the_web_app_outgrows_its_bound() -> None:
    problems = oversized(BOUNDED)
    assert not problems, "\n" + "\n".join(problems)
