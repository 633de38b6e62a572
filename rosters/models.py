"""Rosters and printed sheets."""
