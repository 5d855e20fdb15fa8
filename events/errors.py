"""One root for every error a user can cause; each says what was wrong and where."""


class RinklogError(Exception):
    """Root of rinklog's errors. The CLI prints the message on one line and exits 1."""


class CardError(RinklogError):
    """A card, team or chart file that does not validate (names file, player, field)."""


class RollError(RinklogError, ValueError):
    """A roll typed or recorded wrong."""


class UnknownTeam(RinklogError):
    """A team id the fixtures do not hold."""


class UnknownGame(RinklogError):
    """A game id (stream) the database does not hold."""


class StreamConflict(RinklogError):
    """An append whose expected version is not the stream's version; nothing written."""


class CorruptDatabase(RinklogError):
    """A database file that is not a rinklog store, or whose rows do not decode."""


class IllegalChoice(RinklogError):
    """A coach choice a game system's rules do not allow, or one they owe and did not get;
    the message names the rule (Hockey Bones 6.41, 14.60, 21.00; DICE Hockey 9-15, 22)."""
