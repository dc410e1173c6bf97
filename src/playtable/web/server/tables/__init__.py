"""A table and its play: the table and its log, seats, votes, clocks, replays and pasts,
tutorials, the game catalogue and the Rotator board check."""
