"""Live Star Dice tables fed by a TUIO stream, and their routes."""
