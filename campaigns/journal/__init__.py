"""The journal: the fold of its events (engine), the core's event kinds and rules (seats excepted), and the state's shape."""
