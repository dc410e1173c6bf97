"""playtable: four tabletop game designs, playable by people and bots, and a playtest lab."""

__version__ = "0.1.0"
