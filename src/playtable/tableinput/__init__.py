"""Real-table input: TUIO 1.1 over OSC/UDP from a multitouch table, turned into dice positions.

Floor: beside `agents`, above `games`; it may import `games` and `core`. The CLI, the web app
and the lab use it; games never do (a game only turns dice positions into a game state, see
`games/stardice/live.py`).

* `tuio`: the TUIO 1.1 receiver and its frame logic (packets in, committed frames out);
* `tracking`: contacts to tracked dice (identity, grace, velocity) feeding a live Star Dice table;
* `dicemap`: which fiducial is which die;
* `listener`: the UDP socket, recording and replay.
* `fouls`: the seed's fouls found in the stream of reports (a finger while the state changes, the
  Borg die leaving the table).
"""
