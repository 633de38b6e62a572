"""Rifles in the Ardennes: the solitaire campaign game (section 8). See docs/rifles-ardennes.md."""

from .system import SYSTEM

__all__ = ["SYSTEM"]
