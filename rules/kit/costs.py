"""What a roll costs: worked out once, by the game's pool rules, for the pool builder and
the roll alike.

The builder's cost line and the roll's refusal before any die is drawn both read the same
`Cost` of the same request (the roll's request as the table fills it, the dice the GM
added included), so what the page says a roll costs is what the roll charges, and a
refusal names the same numbers. A cost has two parts: what the dice themselves cost
(SMV-3..7 paid dice, the CTX-6 Big Hero Die), charged whatever the faces, and the plot
points named for more dice in the result (SER-8, SMV-8), charged only for the dice that
come up above 1 beyond the two in the result, so "up to" that many.
"""

from __future__ import annotations

from dataclasses import dataclass

from .table import ActionError, SheetHandle, Table

PLOT_POINT = ("plot point", "plot points")


@dataclass(frozen=True)
class CostItem:
    """One paid die: what it is, what it costs, and why."""

    what: str  # the die as the pool names it: "Kent Farm d6"
    points: int
    why: str


@dataclass(frozen=True)
class Cost:
    """What one side's pool costs in one counter."""

    items: tuple[CostItem, ...] = ()
    for_result: int = 0  # points named for more dice in the result: charged at most
    counter: str = "plot_points"
    words: tuple[str, str] = PLOT_POINT

    @property
    def for_dice(self) -> int:
        return sum(item.points for item in self.items)

    @property
    def most(self) -> int:
        """The most the roll can charge: what a character must hold to make it."""
        return self.for_dice + self.for_result

    def amount(self, count: int) -> str:
        one, many = self.words
        return f"{count} {one if count == 1 else many}"

    @property
    def headline(self) -> str:
        """ "Costs 1 plot point", "Costs up to 2 plot points", "Costs 1 to 3 plot points";
        empty when the roll is free."""
        if not self.for_result:
            return f"Costs {self.amount(self.for_dice)}" if self.for_dice else ""
        if not self.for_dice:
            return f"Costs up to {self.amount(self.for_result)}"
        return f"Costs {self.for_dice} to {self.amount(self.most)}"

    @property
    def lines(self) -> list[str]:
        """What each part pays for, as the builder lists it."""
        lines = [
            f"{item.points} for {item.what} ({item.why})" for item in self.items if item.points
        ]
        if self.for_result:
            lines.append(
                f"up to {self.for_result} for more dice in the result: one for each die "
                "beyond the two highest that comes up above 1"
            )
        return lines

    def refusal(self, who: str, held: int) -> str:
        """Why a character holding `held` cannot make the roll ("" when they can)."""
        if self.most <= held:
            return ""
        return f"That costs {self.amount(self.most)}; {who} has {held}."


def require_payable(ctx: Table, sheet: SheetHandle | None, cost: Cost) -> None:
    """Refuse, before any die is drawn, a roll the character cannot pay for, in the words
    the builder uses."""
    if sheet is None or cost.most <= 0:
        return
    refusal = cost.refusal(sheet.name, ctx.character(sheet).counter(cost.counter))
    if refusal:
        raise ActionError(refusal)
