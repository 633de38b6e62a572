"""Answers kept per audience position (viewcache), the positions themselves (audiences) and prepared lookups."""
