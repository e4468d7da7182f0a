"""Text one member types and the others read: chat lines, display names, character and
trait names, notes, campaign and scene names.

`shown_text` takes out the code points that are not seen but change what is around them:
control characters (ESC, BEL, ...; a tab and a line break stay), bidirectional overrides,
embeddings, isolates and marks ("invoice_\u202efdp.exe" would read "invoice_exe.pdf"), and
the invisible format characters (zero-width space, word joiner, soft hyphen, ...). What a
script or an emoji needs stays: the zero-width joiner and non-joiner (emoji sequences,
Persian, the Indic scripts), variation selectors, a flag's tag characters, and the few
format characters that are part of a script's own writing.

`imitates_a_role` says whether a display name would pass for a role ("The GM", "G.M.",
"Game-Master", "Admin", ...), whatever its case, width, accents, look-alike letters or
punctuation: who speaks as the GM is shown by the role, never by a name.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Any

from django import forms

LINE_BREAKS = re.compile(r"\r\n|[\r\u2028\u2029\x85]")
KEPT_CONTROLS = frozenset("\t\n")
JOINERS = frozenset({0x200C, 0x200D})  # zero-width non-joiner and joiner
# Format characters that belong to a script's writing (Arabic, Syriac and Kaithi number
# marks, Egyptian hieroglyph and shorthand format controls).
SCRIPT_FORMATS = (
    (0x0600, 0x0605),
    (0x06DD, 0x06DD),
    (0x070F, 0x070F),
    (0x0890, 0x0891),
    (0x08E2, 0x08E2),
    (0x110BD, 0x110BD),
    (0x110CD, 0x110CD),
    (0x13430, 0x1345F),
    (0x1BCA0, 0x1BCA3),
)
TAGS = (0xE0020, 0xE007F)  # a subdivision flag's letters, after the black flag, up to
CANCEL_TAG = 0xE007F  # the tag that ends them
BLACK_FLAG = 0x1F3F4


def _script_format(point: int) -> bool:
    return any(first <= point <= last for first, last in SCRIPT_FORMATS)


def _kept(char: str, before: str) -> bool:
    category = unicodedata.category(char)
    if category == "Cc":
        return char in KEPT_CONTROLS
    if category == "Cs":  # a lone surrogate (a JSON "\ud800"): no character at all
        return False
    if category != "Cf":
        return True
    point = ord(char)
    if point in JOINERS or _script_format(point):
        return True
    if TAGS[0] <= point <= TAGS[1]:
        return bool(before) and (ord(before) == BLACK_FLAG or TAGS[0] <= ord(before) < CANCEL_TAG)
    return False


def shown_text(text: str) -> str:
    """`text` without what would be unseen yet change how it reads; line breaks as "\\n"."""
    text = LINE_BREAKS.sub("\n", text)
    kept: list[str] = []
    for char in text:
        if _kept(char, kept[-1] if kept else ""):
            kept.append(char)
    return "".join(kept)


def shown_json(value: Any) -> Any:
    """A JSON value with every string in it (keys too) taken through `shown_text`: what a
    request carries into the log reaches the other members' cards as text they can read."""
    if isinstance(value, str):
        return shown_text(value)
    if isinstance(value, list):
        return [shown_json(item) for item in value]
    if isinstance(value, dict):
        return {shown_text(str(key)): shown_json(item) for key, item in value.items()}
    return value


class ShownTextField(forms.CharField):
    """A form's CharField for text other members read: cleaned by shown_text before the
    usual checks, so a name of nothing but hidden characters is an empty name."""

    def to_python(self, value):
        if isinstance(value, str):
            value = shown_text(value)
        return super().to_python(value)


# --------------------------------------------------------------------------- roles

ROLE_NAMES = frozenset(
    {
        "gm",
        "gamemaster",
        "dm",
        "dungeonmaster",
        "narrator",
        "storyteller",
        "admin",
        "administrator",
        "moderator",
        "mod",
        "rollcall",
        "system",
    }
)
# Letters and digits that pass for Latin letters once case and width are folded
# (punctuation is not mapped: "GM!" is "gm").
LOOK_ALIKES = str.maketrans(
    {
        "а": "a", "в": "b", "е": "e", "ё": "e", "һ": "h", "і": "i", "ј": "j", "к": "k",
        "м": "m", "н": "h", "о": "o", "р": "p", "с": "c", "т": "t", "у": "y", "х": "x",
        "ѕ": "s", "ԁ": "d", "ԍ": "g", "ɡ": "g", "ց": "g", "ı": "i", "α": "a", "ε": "e",
        "ι": "i", "κ": "k", "μ": "m", "ν": "v", "ο": "o", "ρ": "p", "τ": "t", "υ": "u",
        "χ": "x", "ɢ": "g", "ᴍ": "m", "ɴ": "n", "ʀ": "r", "ꜱ": "s", "ᴅ": "d", "ᴀ": "a",
        "ᴇ": "e", "ᴛ": "t", "ɪ": "i", "ʟ": "l",
        "0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t",
    }
)  # fmt: skip
BRACKETED = re.compile(r"[\[({<]([^\])}>]*)[\])}>]")
ROLE_NAME_REFUSED = (
    "A display name cannot look like a role (“The GM”, “Game Master”, “Narrator”, "
    "“Admin”, “[GM]”…): the table marks who is the GM itself. Choose another name."
)


def role_key(text: str) -> str:
    """The letters a name reads as: no accents, case, width, look-alikes, punctuation,
    spaces or hidden characters, and no leading "the"."""
    folded = unicodedata.normalize("NFKD", shown_text(text))
    folded = "".join(c for c in folded if unicodedata.category(c) not in ("Mn", "Me"))
    folded = unicodedata.normalize("NFKC", folded).casefold().translate(LOOK_ALIKES)
    letters = "".join(c for c in folded if c.isalnum())
    return letters.removeprefix("the")


def imitates_a_role(name: str) -> bool:
    """The whole name reads as a role, or a role stands in brackets in it ("[GM] Bob")."""
    if role_key(name) in ROLE_NAMES:
        return True
    folded = unicodedata.normalize("NFKC", shown_text(name))
    return any(role_key(inner) in ROLE_NAMES for inner in BRACKETED.findall(folded))
