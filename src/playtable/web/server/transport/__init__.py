"""How messages reach a table: the wire messages, the socket pump, the guard, and for
`serve --processes N` the front, the worker processes, owners and peers; the collector's
settings."""
