"""The errors every layer raises for bad input; front ends turn them into one clear line."""


class PlaytableError(Exception):
    """Bad input from a person or a file. The message names the problem in one line."""


class IllegalAction(PlaytableError):
    """An action that is malformed, or not legal in the current state. The state is unchanged."""


class BadPosition(PlaytableError):
    """A position (state JSON) that cannot be read or breaks the game's invariants."""


class BadParameter(PlaytableError):
    """An unknown parameter name, or a value of the wrong type or out of range."""


class UnknownGame(PlaytableError):
    """A game id that is not in the registry."""
