"""The append-only log: its rows on the hot path, what an event changed and how a void
gives it back, and the one gate that decides what each role may see of it."""
