"""`playtable completion`: the shell's tab completion of commands, options, game ids, agents
and variants (click's own completion, answered by the `playtable` command itself)."""

from __future__ import annotations

import os

import click

SHELLS = ("bash", "zsh", "fish")

INSTALL = """Install it once (then open a new shell):

\b
  bash:  playtable completion bash > ~/.local/share/bash-completion/completions/playtable
  zsh:   playtable completion zsh > ~/.zfunc/_playtable
         (with `fpath+=~/.zfunc; autoload -Uz compinit; compinit` in ~/.zshrc)
  fish:  playtable completion fish > ~/.config/fish/completions/playtable.fish

\b
Or for this shell only: eval "$(playtable completion bash)" (zsh: the same with zsh).
Then `playtable sim t<TAB>` completes the game, `--agent <TAB>` its agents and `--variant <TAB>`
its named variants.
"""


@click.command(epilog=INSTALL)
@click.argument("shell", type=click.Choice(SHELLS), required=False)
def completion(shell: str | None) -> None:
    """Print the tab-completion script for SHELL (default: the one in $SHELL, else bash)."""
    from click.shell_completion import get_completion_class

    if shell is None:
        name = os.path.basename(os.environ.get("SHELL", ""))
        shell = name if name in SHELLS else "bash"
    kind = get_completion_class(shell)
    assert kind is not None  # every name in SHELLS is one of click's
    root = click.get_current_context().find_root().command
    click.echo(kind(root, {}, "playtable", "_PLAYTABLE_COMPLETE").source())
