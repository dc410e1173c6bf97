"""Grid geometry: square names, neighbours, reachability."""

from __future__ import annotations

from collections import deque
from collections.abc import Callable, Iterable

from playtable.core.errors import IllegalAction

Square = tuple[int, int]
DIRS: dict[str, Square] = {"N": (-1, 0), "E": (0, 1), "S": (1, 0), "W": (0, -1)}
CORNERS = ("NW", "NE", "SW", "SE")


def name(sq: Square) -> str:
    """(row, col) -> 'c3': column letter then row number, both from the top left."""
    return f"{chr(97 + sq[1])}{sq[0] + 1}"


def parse_square(text: str, size: int) -> Square:
    if len(text) < 2 or not text[0].isalpha() or not text[1:].isdigit():
        raise IllegalAction(f"'{text}' is not a square like c3")
    sq = (int(text[1:]) - 1, ord(text[0].lower()) - 97)
    if not (0 <= sq[0] < size and 0 <= sq[1] < size):
        raise IllegalAction(f"square '{text}' is off the {size}x{size} board")
    return sq


def step(sq: Square, d: str) -> Square:
    dr, dc = DIRS[d]
    return (sq[0] + dr, sq[1] + dc)


def corner(size: int, which: str) -> Square:
    return (0 if which[0] == "N" else size - 1, 0 if which[1] == "W" else size - 1)


def centre_choices(size: int) -> list[Square]:
    if size % 2:
        return [(size // 2, size // 2)]
    h = size // 2
    return [(h - 1, h - 1), (h - 1, h), (h, h - 1), (h, h)]


def ring(tower: Square, size: int) -> set[Square]:
    """The last layer of tiles around the tower (its 8 neighbours)."""
    r, c = tower
    return {
        (r + dr, c + dc)
        for dr in (-1, 0, 1)
        for dc in (-1, 0, 1)
        if (dr or dc) and 0 <= r + dr < size and 0 <= c + dc < size
    }


def distances(start: Square, passable: Callable[[Square], bool], size: int) -> dict[Square, int]:
    """Breadth-first distances from `start` over passable squares (start always included)."""
    dist = {start: 0}
    todo = deque([start])
    while todo:
        sq = todo.popleft()
        for d in DIRS.values():
            nxt = (sq[0] + d[0], sq[1] + d[1])
            if 0 <= nxt[0] < size and 0 <= nxt[1] < size and nxt not in dist and passable(nxt):
                dist[nxt] = dist[sq] + 1
                todo.append(nxt)
    return dist


def all_reach(
    sources: Iterable[Square], targets: Iterable[Square], passable: Callable[[Square], bool], size: int
) -> bool:
    targets = list(targets)
    for src in sources:
        seen = distances(src, passable, size)
        if any(t not in seen for t in targets):
            return False
    return True


def neighbours(sq: Square, size: int) -> list[Square]:
    return [(sq[0] + dr, sq[1] + dc) for dr, dc in DIRS.values()
            if 0 <= sq[0] + dr < size and 0 <= sq[1] + dc < size]


def separators(
    root: Square, passable: Callable[[Square], bool], size: int, targets: set[Square]
) -> tuple[set[Square], set[Square]]:
    """(the squares whose removal cuts some target off from `root`, the squares reachable from
    `root`), by one depth-first search (articulation points, Hopcroft & Tarjan 1973)."""
    disc = {root: 0}
    low = {root: 0}
    parent: dict[Square, Square | None] = {root: None}
    has = {root: root in targets}
    cut: set[Square] = set()
    stack = [(root, iter(neighbours(root, size)))]
    clock = 1
    while stack:
        v, todo = stack[-1]
        for w in todo:
            if not passable(w):
                continue
            if w not in disc:
                disc[w] = low[w] = clock
                clock += 1
                parent[w] = v
                has[w] = w in targets
                stack.append((w, iter(neighbours(w, size))))
                break
            if w != parent[v]:
                low[v] = min(low[v], disc[w])
        else:
            stack.pop()
            p = parent[v]
            if p is not None:
                low[p] = min(low[p], low[v])
                if has[v]:
                    if low[v] >= disc[p] and p != root:
                        cut.add(p)
                    has[p] = True
    return cut, set(disc)
