"""Refit Phase steps as data + pure functions (see docs/achtung-panzer.md, "Steps").

Each step module exposes ``STEPS: list[Step]``; registry.py lists the modules, refit_steps.py
puts their steps in rulebook order and refit_events.py dispatches events to them.
"""
