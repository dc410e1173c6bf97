"""`playtable stardice table`: the web server with one live Star Dice table driven by a real
multitouch table's TUIO stream (or a recording), to open full screen on the table
(seed 002's table mode; docs/web.md "Live tables")."""

from __future__ import annotations

import socket
from pathlib import Path

import click

from playtable.cli.common import (
    NON_NEGATIVE,
    OUT_FILE,
    PORT,
    log,
    param_option,
    source_timeout_option,
    variant_option,
)
from playtable.cli.serve import OPERATOR_HELP, operator_token_option


def _check_port(kind: int, host: str, port: int, what: str) -> None:
    """One clear line now rather than a server that fails to start: the port must be free."""
    from playtable.core.errors import BadParameter

    with socket.socket(socket.AF_INET, kind) as probe:
        if kind == socket.SOCK_STREAM:
            probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as err:
            raise BadParameter(f"cannot listen for {what} on {host}:{port}: "
                               f"{err.strerror or err}") from None


@click.command("table")
@click.option("--tuio-port", type=PORT, default=None,
              help="UDP port of the table's TUIO stream [default: 3333; none with --replay "
                   "unless given].")
@click.option("--tuio-host", default="127.0.0.1", show_default=True,
              help="Address the TUIO port listens on (the tracker's side).")
@click.option("--host", default="127.0.0.1", show_default=True, help="Address of the web server.")
@click.option("--port", type=PORT, default=8000, show_default=True, help="Port of the web server.")
@click.option("--dice", "dice_map", default="sample", show_default=True, metavar="MAP",
              help="Fiducial ids to dice: a JSON file, inline '0=F.d20a,7=K.d20a,14=borg', or "
                   "'sample' (the shipped map). Values may be left out: players tap them in.")
@click.option("--replay", "replay_path", default=None, metavar="FILE|sample",
              help="Replay a recorded TUIO session (real time) into the table.")
@click.option("--record", "record_path", type=OUT_FILE, default=None,
              help="Record every datagram of the stream to this file (JSON lines).")
@click.option("--record-dir", type=click.Path(file_okay=False, path_type=Path), default=None,
              help="Where the page's Record button writes "
                   "[default: recordings in the user's data folder, "
                   "$XDG_DATA_HOME/playtable/recordings on Linux].")
@click.option("--db", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="SQLite file of the lobby's tables [default: as `playtable serve`].")
@click.option("--profiles", default="2Dobj,2Dblb", show_default=True,
              help="TUIO profiles that carry dice (2Dobj, 2Dblb, 2Dcur).")
@click.option("--grace", type=NON_NEGATIVE, default=0.25, show_default=True,
              help="Seconds a vanished die is kept before it leaves its formation.")
@source_timeout_option
@click.option("--force", is_flag=True, help="Replace --record if it exists.")
@click.option("--operator-token", callback=operator_token_option, default=None,
              envvar="PLAYTABLE_OPERATOR_TOKEN", help=OPERATOR_HELP)
@variant_option
@param_option
def table(tuio_port: int | None, tuio_host: str, host: str, port: int, dice_map: str,
          replay_path: str | None, record_path: str | None, record_dir: Path | None,
          db: Path | None, profiles: str, grace: float, source_timeout: float, force: bool,
          variant: str | None,
          params: tuple[str, ...], operator_token: str) -> None:
    """Serve a live Star Dice table (the seed's table software) in the browser, driven by a
    real table's TUIO stream: open the printed address full screen on the table."""
    from playtable.cli.common import game_and_params
    from playtable.cli.serve import default_db
    from playtable.core.errors import BadParameter
    from playtable.core.files import check_new_output
    from playtable.tableinput.dicemap import load_dice_map
    from playtable.tableinput.listener import load_recording
    from playtable.tableinput.tuio import PROFILES
    from playtable.web.server.live.operator import new_token

    if record_path:
        check_new_output(record_path, force)
    if replay_path is None and tuio_port is None:
        tuio_port = 3333
    _, the_params = game_and_params("stardice", variant, params)
    dice = load_dice_map(dice_map)
    chosen = tuple(p.strip() for p in profiles.split(",") if p.strip())
    for p in chosen:
        if p not in PROFILES:
            raise BadParameter(f"unknown TUIO profile '{p}' (known: {', '.join(PROFILES)})")
    if replay_path is not None:
        load_recording(replay_path)  # a bad file is refused now, in one line
    _check_port(socket.SOCK_STREAM, host, port, "the web page")
    if tuio_port is not None:
        _check_port(socket.SOCK_DGRAM, tuio_host, tuio_port, "TUIO")
    import uvicorn

    from playtable.web.server.app import create_app
    from playtable.web.server.live.live import LiveSpec

    control = new_token()
    spec = LiveSpec(dice, the_params, tuio_host, tuio_port, replay_path, record_path, force,
                    grace, chosen, control=control, expires=False,
                    silent_after=source_timeout or None)
    records = record_dir or default_db().parent / "recordings"
    app = create_app(db or default_db(), live=[spec], record_dir=records,
                     operator_token=operator_token)
    udp = f"{tuio_host}:{tuio_port}" if tuio_port else f"{tuio_host}, a free port the page shows"
    source = (f"TUIO on udp {udp}" if tuio_port is not None else "") + \
        (" and " if tuio_port is not None and replay_path else "") + \
        (f"the replay of {replay_path}, from when the page opens" if replay_path else "")
    # the control link goes to the table's own screen; watchers open /live/main without it
    log.info("playtable: the live Star Dice table (%s): open http://%s:%s/live/main#control=%s full "
             "screen (F11); Ctrl+C stops the server", source, host, port, control)
    log.info("playtable: the operator page (more live tables; keep its address private): "
             "http://%s:%s/operator#token=%s", host, port, operator_token)
    uvicorn.run(app, host=host, port=port, log_level="warning", ws_max_size=1 << 20,
                ws="websockets-sansio")
