"""Notices: what waits for one person, made from what that person's audience may see (waiting),
from an outbox row written in the append's transaction (outbox) by a task after commit (making),
and read in the inbox (inbox). docs/architecture.md, "Notices"."""
