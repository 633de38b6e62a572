"""Refit Phase steps as data + pure functions (see docs/achtung-panzer.md, "Steps").

Each step module exposes ``STEPS: list[Step]``; sequence.py puts them in rulebook
order and dispatches events to them.
"""
