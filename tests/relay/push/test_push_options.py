"""The host's Web Push settings: the VAPID key from --push-key-file or MOVEWIRE_VAPID_KEY,
--push-subject and --push-every; off without a key, and refused at start, in words that say
what to do and never show the key, when any of them is bad (docs/web-push.md)."""

from __future__ import annotations

from pathlib import Path

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from relay import Config
from relay.cli import parse_args
from relay.config import NO_PUSH_SUBJECT
from relay.push.keys import KEY_ENV, NO_KEY, b64url

pytestmark = pytest.mark.timeout(30)

SUBJECT = "mailto:host@games.example"


def pem(curve: ec.EllipticCurve | None = None) -> bytes:
    key = ec.generate_private_key(curve or ec.SECP256R1())
    return key.private_bytes(
        serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()
    )


def refusal(argv: list[str], capsys: pytest.CaptureFixture[str]) -> str:
    with pytest.raises(SystemExit) as stop:
        parse_args(argv)
    assert stop.value.code == 2
    return capsys.readouterr().err


@pytest.fixture(autouse=True)
def no_key_in_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(KEY_ENV, raising=False)


def test_push_is_off_without_a_key() -> None:
    config, _ = parse_args([])
    assert (config.push_key, config.push_subject, config.push_every) == (b"", "", 600.0)


def test_the_key_comes_from_a_file_or_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    text = pem()
    path = tmp_path / "vapid.pem"
    path.write_bytes(text + b"\n\n")
    config, _ = parse_args(
        ["--push-key-file", str(path), "--push-subject", SUBJECT, "--push-every", "2.5"]
    )
    assert (config.push_key, config.push_subject, config.push_every) == (text.strip(), SUBJECT, 150)
    raw = b64url(
        ec.generate_private_key(ec.SECP256R1()).private_numbers().private_value.to_bytes(32)
    )
    monkeypatch.setenv(KEY_ENV, raw)
    config, _ = parse_args(["--push-subject", "https://games.example"])
    assert config.push_key == raw.encode()
    assert raw not in repr(config) and "PRIVATE" not in repr(config)


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["--push-subject", SUBJECT], NO_KEY),
        (["--push-key-file", "/nonexistent/vapid.pem", "--push-subject", SUBJECT],
         "cannot read --push-key-file '/nonexistent/vapid.pem'"),
        (["--push-key-file", "{key}"], NO_PUSH_SUBJECT),
        (["--push-key-file", "{key}", "--push-subject", "host@games.example"],
         "must be a mailto: address or an https:// URL"),
        (["--push-key-file", "{key}", "--push-subject", "http://games.example"],
         "must be a mailto: address or an https:// URL"),
        (["--push-key-file", "{key}", "--push-subject", SUBJECT, "--push-every", "-1"],
         "the push window must be >= 0 minutes"),
        (["--push-key-file", "{p384}", "--push-subject", SUBJECT], "P-256"),
        (["--push-key-file", "{short}", "--push-subject", SUBJECT], "P-256"),
        (["--push-key-file", "{empty}", "--push-subject", SUBJECT], "is empty"),
    ],
)  # fmt: skip
def test_bad_settings_are_refused_at_start(
    argv: list[str], said: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    files = {"key": pem(), "p384": pem(ec.SECP384R1()), "short": b"A" * 42, "empty": b" \n"}
    for name, text in files.items():
        (tmp_path / name).write_bytes(text)
    argv = [arg.format(**{name: tmp_path / name for name in files}) for arg in argv]
    err = refusal(argv, capsys)
    assert said in err
    assert "PRIVATE" not in err and "AAAA" not in err


def test_a_config_made_in_code_checks_the_subject_and_window() -> None:
    with pytest.raises(ValueError, match="--push-subject"):
        Config(push_key=pem())
    with pytest.raises(ValueError, match=">= 0 minutes"):
        Config(push_every=-60)
