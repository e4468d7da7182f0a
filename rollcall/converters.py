"""Path converters: ids that fit a database key, so a huge number is a 404, not a crash."""


class IdConverter:
    """A positive id of at most 18 digits (below 2**63 - 1 on every database)."""

    regex = "[0-9]{1,18}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int) -> str:
        return str(value)
