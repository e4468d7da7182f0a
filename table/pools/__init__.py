"""Pools and the roll: the builder's inputs, the pool in the open, the pools rolled last,
the game's scene-panel hooks, and the one roll of a built pool."""
