"""The shipped table-input samples: a dice map (`sample_data/dice.json`) and a short TUIO 1.1
recording (`sample_data/session.jsonl`) of a real-table session, so `playtable stardice tuio --dice
sample --replay sample` works on a fresh install. `--dice sample` and `--replay
sample` name them; a file called `sample` in the working directory still wins.

The dice map names both fleets of the Final Rules and the Borg die (`FIDUCIALS`); the
recording is made by `build_session` (python-osc, as a tracker would send it) and written by
`python -m playtable.tableinput.samples`: seven dice slide onto the table one after another and
stop; four of them close a square formation (Federation 17 + 9 against Klingon 12 + 5: the
Federation owns it, 6 points), the Borg die and a Klingon d6 lie side by side as a string, and a
Federation d6 lies alone.
"""

from __future__ import annotations

import base64
import json
from importlib import resources
from pathlib import Path
from typing import Any

from pythonosc.osc_bundle_builder import IMMEDIATELY, OscBundleBuilder
from pythonosc.osc_message_builder import OscMessageBuilder

from playtable.core.files import exists

SAMPLE = "sample"
FILES = {"dice": "dice.json", "session": "session.jsonl"}
DEPTH = 0.75  # the touch surface is 1.0 wide and 0.75 deep; TUIO sends y as a share of the depth
FRAME = 0.05  # seconds between a moving die's frames
# fiducial id -> (die, rolled value, resting place on the table)
DICE: dict[int, tuple[str, int, tuple[float, float]]] = {
    14: ("borg", 16, (0.78, 0.40)),
    0: ("F.d20a", 17, (0.30, 0.25)),
    7: ("K.d20a", 12, (0.50, 0.25)),
    3: ("F.d12a", 9, (0.50, 0.45)),
    10: ("K.d8a", 5, (0.30, 0.45)),
    11: ("K.d6a", 4, (0.92, 0.48)),
    4: ("F.d6a", 6, (0.08, 0.68)),
}


FIDUCIALS: dict[str, int] = {
    "F.d20a": 0, "F.d20b": 1, "F.d8a": 2, "F.d12a": 3, "F.d6a": 4, "F.d6b": 5, "F.d6c": 6,
    "K.d20a": 7, "K.d20b": 8, "K.d12a": 9, "K.d8a": 10, "K.d6a": 11, "K.d6b": 12, "K.d6c": 13,
    "borg": 14,
}
"""The shipped map's fiducials for both fleets of the Final Rules and the Borg die (the dice of
the recording keep their ids; the others have no value until the players enter one): the
15 contacts of the Surface's limit (It. 9), what `tuio-sim` sends and `--dice sample` reads."""


def sample_file(kind: str) -> Path:
    """The shipped file of `kind` ('dice' or 'session')."""
    return Path(str(resources.files("playtable.tableinput").joinpath("sample_data", FILES[kind])))


def resolve(arg: str, kind: str) -> str:
    """`arg`, or the shipped sample's path when `arg` is 'sample' and no such file exists here."""
    return str(sample_file(kind)) if arg == SAMPLE and not exists(arg) else arg


def dice_map() -> dict[str, Any]:
    """The recording's dice with their values, then the rest of both fleets without one."""
    out: dict[str, Any] = {str(fid): {"die": die, "value": value}
                           for fid, (die, value, _) in DICE.items()}
    for die, fid in FIDUCIALS.items():
        assert fid not in DICE or DICE[fid][0] == die  # the recording's dice keep their ids
        out.setdefault(str(fid), die)
    return out


def _msg(*args: Any) -> Any:
    builder = OscMessageBuilder("/tuio/2Dobj")
    for a in args:
        builder.add_arg(a)
    return builder.build()


def _bundle(alive: list[int], sets: list[Any], fseq: int) -> bytes:
    builder = OscBundleBuilder(IMMEDIATELY)
    builder.add_content(_msg("source", "sample-table"))
    builder.add_content(_msg("alive", *alive))
    for s in sets:
        builder.add_content(s)
    builder.add_content(_msg("fseq", fseq))
    return bytes(builder.build().dgram)


def _set(sid: int, fid: int, x: float, y: float, vx: float, vy: float) -> Any:
    return _msg("set", sid, fid, float(x), float(y / DEPTH), 0.0, float(vx), float(vy / DEPTH),
                0.0, 0.0, 0.0)


def build_session() -> list[tuple[float, bytes]]:
    """(seconds, datagram): each die slides in from the nearer side over six frames, then lies
    still; the tracker sends a keep-alive frame every half second while nothing moves."""
    out: list[tuple[float, bytes]] = []
    alive: list[int] = []
    t, fseq = 0.0, 1
    for sid, (fid, (_, _, (x, y))) in enumerate(DICE.items(), start=100):
        alive.append(sid)
        start = -0.04 if x < 0.5 else 1.04
        for step in range(1, 7):
            share = step / 6
            px = start + (x - start) * share
            vx = 0.0 if step == 6 else (x - start) / (6 * FRAME)
            out.append((round(t, 3), _bundle(list(alive), [_set(sid, fid, px, y, vx, 0.0)], fseq)))
            t += FRAME
            fseq += 1
        for _ in range(2):  # lying still while the next player picks up a die
            t += 0.5
            out.append((round(t, 3), _bundle(list(alive), [], fseq)))
            fseq += 1
    return out


def write_samples(directory: Path) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    (directory / FILES["dice"]).write_text(json.dumps(dice_map(), indent=1) + "\n", encoding="utf-8")
    lines = [json.dumps({"t": t, "from": "127.0.0.1:3333", "data": base64.b64encode(d).decode("ascii")})
             for t, d in build_session()]
    (directory / FILES["session"]).write_text("\n".join(lines) + "\n", encoding="utf-8")


if __name__ == "__main__":
    write_samples(Path(__file__).parent / "sample_data")
