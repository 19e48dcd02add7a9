"""Domain errors. Callers turn these into messages; they never mean a bug in the caller's I/O."""


class EngineError(Exception):
    """Base class for every error the engine raises on purpose."""


class RulesError(EngineError, ValueError):
    """A rule option or preset that does not exist."""


class IllegalMove(EngineError):
    """A move the current player may not make now. The game is left as it was."""


class GameOver(IllegalMove):
    """A move was tried after the game ended."""


class BadState(EngineError, ValueError):
    """A saved state or record that is malformed or inconsistent."""
