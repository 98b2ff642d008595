"""Sealed player keys open with the secret that sealed them, and with nothing else."""

from __future__ import annotations

from relay.core.sealing import Sealer


def test_a_sealed_key_opens_only_with_its_secret() -> None:
    sealer = Sealer(b"a" * 32)
    sealed = sealer.seal("player-key")
    assert "player-key" not in sealed and sealer.seal("player-key") != sealed
    assert sealer.open(sealed) == "player-key"
    assert Sealer(b"b" * 32).open(sealed) is None
    assert sealer.open(sealed[:-2] + ("A" if sealed[-2] != "A" else "B") + sealed[-1]) is None
    assert sealer.open("not base64 !") is None
    assert sealer.open("") is None
