"""Tournaments: `/steal tournament ...` (declared by the `/steal` cog, cogs/steal) and the
sign-up message's buttons (_handlers.py)."""

from __future__ import annotations

from ._handlers import Tournaments

__all__ = ["Tournaments"]
