"""The table server, by room: `app` (the routes) and `hub` (the live tables' dispatcher) at the
door; `tables/` (a table and its play), `people/` (names and ratings), `playtests/`, `live/`
(live Star Dice tables), `bots/` (bots and hints in worker processes), `transport/` (the wire,
sockets, the guard and `serve --processes N`) and `store/` (SQLite and per-address rates)."""
