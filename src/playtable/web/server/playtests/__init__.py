"""Playtests with people: their specs, store and routes."""
