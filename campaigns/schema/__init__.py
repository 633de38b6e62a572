"""Event data's declared fields and their bounds (fields), and the page forms drawn from them (forms)."""
