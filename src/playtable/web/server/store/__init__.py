"""The SQLite store and the per-address rates all processes count in it."""
