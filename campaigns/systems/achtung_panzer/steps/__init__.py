"""Refit Phase steps as data + pure functions (see docs/achtung-panzer.md, "Steps").

Each step module exposes ``STEPS: list[Step]``; registry.py lists the modules, sequence.py puts
their steps in rulebook order and dispatches events to them.
"""
