"""`playtable stardice`: bot battles drawn as pictures, and live input from a real multitouch
table over TUIO."""

from __future__ import annotations

import json
from typing import Any

import click

from playtable.cli.common import (
    COUNT,
    NON_NEGATIVE,
    OUT_FILE,
    PORT,
    POSITIVE,
    SEED,
    complete_agent,
    log,
    param_option,
    quiet_option,
    source_timeout_option,
    variant_option,
)
from playtable.cli.stardice_sim import tuio_sim
from playtable.cli.stardice_table import table as live_table


@click.group("stardice")
def stardice() -> None:
    """Star Dice: bot battles on the simulated table, and the TUIO input of a real table."""


@stardice.command("battle")
@click.option("--seed", type=SEED, default=0, show_default=True, help="Seed of the table.")
@click.option("--out", type=OUT_FILE, default=None,
              help="Write the final table as a picture (PNG).")
@click.option("--federation", default="search", show_default=True, shell_complete=complete_agent,
              help="Federation's bot.")
@click.option("--klingon", default="random-thrower", show_default=True, shell_complete=complete_agent,
              help="Klingon's bot.")
@click.option("--war", is_flag=True, help="Play a whole war (to war_target) instead of a battle.")
@click.option("--record", "record_path", type=OUT_FILE, default=None,
              help="Save the replay (game, params, seed, action texts) as JSON.")
@click.option("--json", "as_json", is_flag=True, help="Print the result as JSON.")
@quiet_option("Do not print the play-by-play (nor notes): only the result and errors.")
@click.option("--max-steps", type=COUNT, default=100_000, show_default=True,
              help="Stop the war after this many actions.")
@click.option("--force", is_flag=True, help="Replace --out and --record if they exist.")
@variant_option
@param_option
def battle(seed: int, out: str | None, federation: str, klingon: str, war: bool,
           record_path: str | None, as_json: bool, quiet: bool, max_steps: int, force: bool,
           variant: str | None, params: tuple[str, ...]) -> None:
    """A bot-versus-bot battle on the simulated table; prints the score, draws the table."""
    from playtable.core.files import check_new_output, write_atomic

    for target in (out, record_path):  # refused before the battle is played, never after
        if target:
            check_new_output(target, force)
    if out:
        from playtable.core.extras import require

        require("lab", "battle --out (a picture of the table)")
    from playtable.agents import make_agent
    from playtable.cli.common import game_and_params
    from playtable.core.chance import Chance
    from playtable.core.params import params_from_dict
    from playtable.core.records import record_of
    from playtable.games.stardice import render_table, table_summary

    game, the_params = game_and_params("stardice", variant, params)
    if the_params.mode != "versus":
        from playtable.core.errors import BadParameter

        named = {"objective1": "objective1", "objective2": "objective2",
                 "solo": "solo_iteration1"}[the_params.mode]
        raise BadParameter(f"battle is the two-player match; {the_params.mode} is solitaire: "
                           f"try 'playtable sim stardice --variant {named}'")
    if not war and the_params.war_target != 0:
        the_params = params_from_dict(game.params_type, {"war_target": 0}, the_params)
    agents = [make_agent(game, federation), make_agent(game, klingon)]
    state = game.new_state(the_params, seed)
    rng = Chance(seed ^ 0x5D1CE)
    actions: list[Any] = []
    while not state.is_terminal:
        if len(actions) >= max_steps:
            # a war to a huge target (or over many battles) ends here, not after days
            log.warning("stopped after %d actions (--max-steps), the war unfinished", max_steps)
            break
        action = agents[state.current_player].choose(state, rng)
        events = state.apply(action)
        actions.append(action)
        if not quiet and not as_json:
            click.echo(f"> {action}")
            for e in events:
                click.echo(f"    {e.text}")
    summary = table_summary(state)
    summary["winner"] = state.metrics()["winner"]
    summary["throws"] = state.throws
    if record_path:
        rec = record_of("stardice", the_params, seed, actions)
        write_atomic(record_path, json.dumps(rec.to_json(), indent=1) + "\n")
    if out:
        render_table(state, out)
        summary["picture"] = out
    if as_json:
        click.echo(json.dumps(summary))
        return
    pts = summary["points"]
    click.echo(f"Battle score: Federation {pts[0]}, Klingon {pts[1]}"
               + (f"; war {state.war[0]}-{state.war[1]}" if war else "")
               + f"; winner: {summary['winner']}")
    for s in summary["shapes"]:
        owner = "nobody" if s["owner"] is None else ("Federation", "Klingon")[s["owner"]]
        bonus = f" +{s['bonus']}" if s["bonus"] else ""
        click.echo(f"  {s['kind']} of {len(s['objects'])}: {s['points']}{bonus} to {owner} "
                   f"(totals {s['totals'][0]}-{s['totals'][1]}) {s['note']}".rstrip())
    if out:
        click.echo(f"table drawn to {out}")


@stardice.command("tuio")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option("--port", type=PORT, default=3333, show_default=True,
              help="UDP port (0: any free port; the port is printed on stderr).")
@click.option("--dice", "dice_map", required=True, metavar="MAP",
              help="Fiducial ids to dice: a JSON file, or inline '0=F.d20a:17,1=K.d6a,12=borg:16'.")
@click.option("--profiles", default="2Dobj,2Dblb", show_default=True,
              help="TUIO profiles that carry dice (2Dobj, 2Dblb, 2Dcur).")
@click.option("--json", "as_json", is_flag=True,
              help="One JSON line per committed frame (dice, connections, formations, points).")
@click.option("--record", "record_path", type=OUT_FILE, default=None,
              help="Record every datagram received to this file (JSON lines).")
@click.option("--replay", "replay_path", type=click.Path(dir_okay=False), default=None,
              help="Replay a recorded session instead of listening.")
@click.option("--realtime", is_flag=True, help="Replay at the recorded pace.")
@click.option("--duration", type=POSITIVE, default=None, help="Stop after this many seconds.")
@click.option("--max-frames", type=COUNT, default=None, help="Stop after this many frames.")
@click.option("--grace", type=NON_NEGATIVE, default=0.25, show_default=True,
              help="Seconds a vanished die is kept before it leaves its formation.")
@click.option("--picture", type=OUT_FILE, default=None,
              help="Keep a picture of the live table up to date in this file (PNG).")
@click.option("--picture-every", type=POSITIVE, default=1.0, show_default=True,
              help="Seconds between redraws of --picture.")
@click.option("--values-from-stdin", is_flag=True,
              help="Read rolled values typed by the players on stdin: lines 'F.d20a 17'.")
@click.option("--force", is_flag=True, help="Replace --record and --picture if they exist.")
@source_timeout_option
@variant_option
@param_option
def tuio(host: str, port: int, dice_map: str, profiles: str, as_json: bool,
         record_path: str | None, replay_path: str | None, realtime: bool,
         duration: float | None, max_frames: int | None, grace: float,
         picture: str | None, picture_every: float, values_from_stdin: bool, force: bool,
         source_timeout: float, variant: str | None, params: tuple[str, ...]) -> None:
    """Live formations and scores from a real multitouch table speaking TUIO 1.1."""
    import sys

    from playtable.core.files import check_new_output

    # refused before listening or replaying, never after; a replay records nothing. Once
    # started, the picture's redraws replace the file this command wrote (atomically).
    for target in (None if replay_path else record_path, picture):
        if target:
            check_new_output(target, force)

    if picture:
        from playtable.core.extras import require

        require("lab", "tuio --picture (a picture of the table)")
    import threading

    from playtable.cli.common import game_and_params
    from playtable.core.errors import BadParameter
    from playtable.tableinput.dicemap import load_dice_map
    from playtable.tableinput.listener import TuioListener, replay_recording
    from playtable.tableinput.tracking import TuioTable

    if host not in ("127.0.0.1", "localhost", "::1") and not host.startswith("127."):
        log.warning("listening on %s, not only on loopback", host)
    _, the_params = game_and_params("stardice", variant, params)
    last_line: list[str] = [""]

    drawn: list[float] = [-1e9]

    def show(report: dict[str, Any]) -> None:
        if picture and report["t"] - drawn[0] >= picture_every:
            drawn[0] = report["t"]
            table.render(picture)
        if as_json:
            sys.stdout.write(json.dumps(report, separators=(",", ":")) + "\n")
            sys.stdout.flush()
            return
        line = (f"Federation {report['points'][0]} - Klingon {report['points'][1]} | "
                f"formations {report['formations']} | strings {report['strings']}")
        if line != last_line[0]:
            click.echo(f"[{report['t']:8.2f}s] {line}")
            last_line[0] = line

    table = TuioTable(
        load_dice_map(dice_map), the_params.formation_params(), the_params.scoring_rules(),
        tuple(p.strip() for p in profiles.split(",") if p.strip()), grace=grace,
        borg_faces=the_params.borg_faces, borg_pips=the_params.borg_pips, on_frame=show,
        silent_after=source_timeout or None)
    if values_from_stdin:
        def read_values() -> None:
            for raw in sys.stdin:
                parts = raw.split()
                if len(parts) == 2 and parts[1].isdigit():
                    try:
                        table.set_value(parts[0], int(parts[1]))
                    except BadParameter as err:
                        log.error("%s", err)
                elif parts:
                    log.error("expected 'DIE VALUE', got %r", raw.strip()[:60])

        threading.Thread(target=read_values, daemon=True).start()
    if replay_path:
        n = replay_recording(table, replay_path, realtime)
        if picture:
            table.render(picture)
        log.info("replayed %d packets: %d frames, %d malformed, %d late", n, table.stats.frames,
                 table.stats.malformed, table.stats.late_frames)
        return
    listener = TuioListener(table, host, port, record_path, replace=force)
    log.info("listening on %s:%s", listener.address[0], listener.address[1])
    try:
        listener.serve(duration, max_frames)
    except KeyboardInterrupt:
        listener.close()
    if picture:
        table.render(picture)
    log.info("received %d packets: %d frames, %d malformed, %d late", table.stats.packets,
             table.stats.frames, table.stats.malformed, table.stats.late_frames)


stardice.add_command(live_table)
stardice.add_command(tuio_sim)
