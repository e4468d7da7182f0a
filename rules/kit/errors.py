"""Errors a player can read: every invalid request raises a RulesError subclass."""


class RulesError(ValueError):
    """A request the rules cannot resolve; the message is shown to players as is."""


class InvalidDie(RulesError):
    """A die that is not d4, d6, d8, d10 or d12 (or an illegal compound die)."""


class InvalidRequest(RulesError):
    """A request that is missing a field, has a wrong type, or breaks a pool rule."""


class FaceError(RulesError):
    """Recorded faces that do not fit the request: too few, too many, or off the die."""
