"""Bots and hints in worker processes."""
