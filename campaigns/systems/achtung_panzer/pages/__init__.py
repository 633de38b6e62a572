"""What the campaign page asks an Achtung! Panzer! side for: the to-dos of the moment and each
form's fields made concrete from the side's own records (GameSystem.form_fields): units by
id and words, RGs with their cost and limits, objective hexes from 1.2. Nothing here decides
a rule; the fold checks every submission again.

By what each module draws: todos (the to-do list), refit_todos (the Refit Phase's step and its
buttons), forms (each form by kind, the data a posted form becomes, a correction's fields),
aftermath_form (the end of the scenario), joint_form (the map steps' confirmation),
retained_form (corrections of the retained units), correction_form (a correction of an earlier
step, what it names picked by name)."""

from .aftermath_form import pick_groups
from .forms import correction_fields, form_data, form_fields
from .todos import actions

__all__ = ["actions", "correction_fields", "form_data", "form_fields", "pick_groups"]
