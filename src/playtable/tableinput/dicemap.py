"""The dice map of a real table: which fiducial (TUIO class id) is which Star Dice die.

JSON `{"0": "F.d20a", "1": {"die": "F.d20b", "value": 12}, "12": {"die": "borg", "value": 16}}`
or inline `0=F.d20a:17,1=F.d20b,12=borg:16`; die names are the game's (`games/stardice/live.py`).

Each fiducial names one die and each die has one fiducial: a die mapped twice (two markers
both read as `F.d20a`) or a fiducial given twice is refused, as a table cannot hold one die in
two places. Fiducial ids are TUIO class ids, whole numbers from 0 to 2**31-1.
"""

from __future__ import annotations

from pathlib import Path

from playtable.core.errors import BadParameter
from playtable.core.files import exists
from playtable.core.jsonio import parse_json, read_text
from playtable.games.stardice import DieSpec, check_die
from playtable.tableinput.samples import resolve

MAX_FIDUCIAL = 2**31 - 1
"""TUIO class ids are 32-bit signed integers; a marker's id is never negative."""


def _fiducial(key: str) -> int:
    try:
        fid = int(key)
    except ValueError:
        raise BadParameter(f"fiducial id '{key[:20]}' is not a whole number") from None
    if not 0 <= fid <= MAX_FIDUCIAL:
        raise BadParameter(f"fiducial id {key[:20]} is out of range (0 to {MAX_FIDUCIAL})")
    return fid


def _add(out: dict[int, DieSpec], fid: int, spec: DieSpec) -> None:
    """Map `fid` to `spec`: a fiducial given twice, or a die already mapped, is refused."""
    if fid in out:
        raise BadParameter(f"fiducial {fid} is mapped twice ({out[fid].die} and {spec.die})")
    for other, known in out.items():
        if known.die == spec.die:
            raise BadParameter(f"die {spec.die} is mapped twice (fiducials {other} and {fid}): each "
                               "die is one marker on the table")
    out[fid] = spec


def parse_dice_map(text: str) -> dict[int, DieSpec]:
    """A dice map from a JSON file's text or an inline list. JSON:
    {"0": "F.d20a", "1": {"die": "F.d20b", "value": 12}, "12": {"die": "borg", "value": 16}}
    (keys are fiducial / class ids); inline: "0=F.d20a:17,1=F.d20b,12=borg:16"."""
    text = text.removeprefix("\ufeff").strip()
    out: dict[int, DieSpec] = {}
    if text.startswith("{"):
        data = parse_json(text, "the dice map", error=BadParameter)
        data = data.get("dice", data) if isinstance(data, dict) else data
        if not isinstance(data, dict):
            raise BadParameter("the dice map must be a JSON object of fiducial id -> die")
        for key, spec in data.items():
            fid = _fiducial(key)
            if isinstance(spec, str):
                _add(out, fid, DieSpec(check_die(spec)))
            elif isinstance(spec, dict) and isinstance(spec.get("die"), str):
                value, pips = spec.get("value"), spec.get("pips")
                if value is not None and not isinstance(value, int):
                    raise BadParameter(f"value of fiducial {fid} must be a whole number")
                if pips is not None and not isinstance(pips, int):
                    raise BadParameter(f"pips of fiducial {fid} must be a whole number")
                _add(out, fid, DieSpec(check_die(spec["die"]), value, pips))
            else:
                raise BadParameter(f"fiducial {fid}: expected a die name or {{\"die\": ...}}")
        return out
    for item in (i.strip() for i in text.split(",") if i.strip()):
        key, sep, rest = item.partition("=")
        if not sep:
            raise BadParameter(f"'{item}' is not of the form FIDUCIAL=DIE[:VALUE]")
        fid = _fiducial(key.strip())
        name, _, value_text = rest.partition(":")
        value = None
        if value_text:
            if not value_text.isdigit():
                raise BadParameter(f"value '{value_text}' of fiducial {fid} is not a number")
            value = int(value_text)
        _add(out, fid, DieSpec(check_die(name.strip()), value))
    return out


def load_dice_map(arg: str) -> dict[int, DieSpec]:
    """`arg` is a path to a JSON file, an inline map, or `sample` (the shipped map, samples.py)."""
    path = Path(resolve(arg, "dice"))
    if "=" not in arg and exists(path):
        return parse_dice_map(read_text(path, "dice map", max_bytes=1024 * 1024, error=BadParameter))
    if "=" not in arg and not arg.strip().startswith("{"):
        raise BadParameter(f"the dice map '{arg}' is neither a file nor FIDUCIAL=DIE,... pairs")
    return parse_dice_map(arg)
