"""Rotator (seed 004): rules, boards, solver and render helpers."""
