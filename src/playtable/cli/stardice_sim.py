"""`playtable stardice tuio-sim`: the virtual table's throws sent as a TUIO 1.1 stream to a live
table over UDP, so a table owner tests the whole chain without the hardware:

    playtable stardice table --tuio-port 3333 --dice sample     # the live table, in a browser
    playtable stardice tuio-sim --port 3333                     # a battle thrown at it

It prints what the players confirm on the live page (the call, each die's face)."""

from __future__ import annotations

import socket
import time

import click

from playtable.cli.common import SEED, log, param_option, variant_option

LOOPBACK = ("127.0.0.1", "localhost", "::1")


@click.command("tuio-sim")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Where the live table listens (loopback unless --any-host).")
@click.option("--port", type=click.IntRange(1, 65535), default=3333, show_default=True,
              help="The live table's TUIO port (UDP).")
@click.option("--any-host", is_flag=True, help="Allow a --host that is not this machine.")
@click.option("--seed", type=SEED, default=0, show_default=True, help="Seed of the simulated war.")
@click.option("--battles", type=click.IntRange(1, 40), default=1, show_default=True,
              help="Battles to play (the war may end sooner).")
@click.option("--federation", default="random-thrower", show_default=True,
              help="The Federation's bot (random-thrower, search, search-strong).")
@click.option("--klingon", default="random-thrower", show_default=True, help="The Klingon's bot.")
@click.option("--pause", type=click.FloatRange(0.0, 60.0), default=4.0, show_default=True,
              help="Seconds between throws, to enter faces on the live page.")
@click.option("--fps", type=click.IntRange(1, 120), default=30, show_default=True,
              help="TUIO frames a second while dice move.")
@click.option("--speed", type=click.FloatRange(0.1, 20.0), default=1.0, show_default=True,
              help="How much faster than the dice move the frames go out.")
@click.option("--wait", is_flag=True, help="Wait for Enter before each step instead of --pause.")
@variant_option
@param_option
def tuio_sim(host: str, port: int, any_host: bool, seed: int, battles: int, federation: str,
             klingon: str, pause: float, fps: int, speed: float, wait: bool, variant: str | None,
             params: tuple[str, ...]) -> None:
    """Throw a simulated Star Dice war at a live table as TUIO 1.1 /tuio/2Dobj bundles (the
    shipped dice map's fiducials: `--dice sample` on the live table)."""
    from playtable.cli.common import game_and_params
    from playtable.core.errors import BadParameter
    from playtable.tableinput.sim import TuioSim

    if host not in LOOPBACK and not host.startswith("127.") and not any_host:
        raise BadParameter(f"{host} is not this machine: pass --any-host to send the stream there")
    _, the_params = game_and_params("stardice", variant, params)
    sim = TuioSim(seed, the_params, battles, (federation, klingon), fps)
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        target = (host, port)
        log.info("sending TUIO 1.1 to udp %s:%d (source %s)", host, port, sim.source)
        for step in sim.steps():
            click.echo(step.text)
            start = time.monotonic()
            for t, data in step.frames:
                delay = t / speed - (time.monotonic() - start)
                if delay > 0:
                    time.sleep(delay)
                sock.sendto(data, target)
            if wait:
                click.prompt("Enter for the next step", default="", show_default=False)
                continue
            end = time.monotonic() + (pause if step.kind != "call" else pause / 2)
            while (left := end - time.monotonic()) > 0:  # a tracker's frames while dice lie still
                time.sleep(min(0.5, left))
                sock.sendto(sim.keep_alive(), target)
    click.echo("done: the simulated war " + ("is over." if sim.state.is_terminal else
                                              f"stops after {len(sim.state.battle_points)} battle(s)."))
