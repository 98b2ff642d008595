"""Display names in the memory store: which player key holds each name's look (its skeletons,
relay.core.text_policy), for a while after it was last used."""

from __future__ import annotations

__all__ = ["MemoryNames"]

PRUNE_EVERY = 1024
"""Claims between two passes that drop the bindings that expired."""


class MemoryNames:
    """Each skeleton bound to the digest of the player key that shows it, and until when."""

    def __init__(self) -> None:
        self._held: dict[str, tuple[str, float]] = {}
        self._claims = 0

    def claim(self, skeletons: tuple[str, ...], digest: str, now: float, hold: float) -> bool:
        """Binds the skeletons to the key (digest; '' only checks) until now + hold; returns
        False, binding nothing, when another key holds one of them."""
        held = self._held
        for skeleton in skeletons:
            owner = held.get(skeleton)
            if owner is not None and owner[1] > now and owner[0] != digest:
                return False
        if digest:
            for skeleton in skeletons:
                held[skeleton] = (digest, now + hold)
            self._claims += 1
            if self._claims % PRUNE_EVERY == 0:
                self._held = {key: value for key, value in held.items() if value[1] > now}
        return True

    def withhold(self, skeleton: str, holder: str, now: float, hold: float) -> None:
        """Binds a skeleton to a holder that is no key (an erased name's), until now + hold."""
        self._held[skeleton] = (holder, now + hold)

    def __len__(self) -> int:
        return len(self._held)
