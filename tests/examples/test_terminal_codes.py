"""Transfer codes in the terminal clients (docs/examples.md#on-another-device): a terminal
shows a code of its player key; another terminal, whose key file held another key, signs in
with it, finds the correspondence match of that key and plays it out; the player key is never
printed; a wrong, used, malformed code and a relay without passkeys are said plainly."""

from __future__ import annotations

import re
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pexpect
import pytest

from examples.text.codes import WORDS
from sdk import load_player_key
from tests.examples.textclients import bot_process, fresh_room, person, quick_relay
from tests.examples.xand0_moves import PROMPT, play_out
from tests.support.relay_process import ROOT, RelayProcess, quick_flags

PASSKEYS = ("--passkey-rp-id", "localhost", "--passkey-origin", "http://localhost")
SECRET = {"MOVEWIRE_PASSKEY_SECRET": "a test secret of more than 16 characters"}
CODE = re.compile(r"Your transfer code: ([2-9A-Z]{5}-[2-9A-Z]{5})")


@pytest.fixture(scope="module")
def relay() -> Iterator[str]:
    """Returns the URL of a relay with passkeys and transfer codes on (1 s holds, 3 s grace)."""
    with RelayProcess(*quick_flags(hold=1, grace=3), *PASSKEYS, env=SECRET) as running:
        yield running.url


def xand0(relay: str, *more: str) -> subprocess.CompletedProcess[str]:
    """Runs the X and 0 client with these options, piped, to its end."""
    return subprocess.run(
        [sys.executable, "-m", "examples.xand0", "--relay", relay, *more],
        cwd=ROOT, capture_output=True, text=True, timeout=30, check=False,
    )  # fmt: skip


@pytest.mark.timeout(90)
def test_a_terminal_signs_in_with_a_code_and_takes_up_the_keys_match(
    relay: str, tmp_path: Path
) -> None:
    room, ann, bob = fresh_room(), tmp_path / "ann.key", tmp_path / "bob.key"
    corr = ("--clock", "1d")
    bot_key = ("--player-key-file", str(tmp_path / "bot.key"))
    with bot_process("xand0", relay, room, 1, *corr, *bot_key) as bot:
        with person("xand0", relay, room, *corr, "--player-key-file", str(ann)) as me:
            me.expect(PROMPT)
            me.kill(signal.SIGKILL)  # Ann's terminal is gone on her turn; the match waits
        shown = xand0(relay, "--show-code", "--player-key-file", str(ann))
        assert shown.returncode == 0, shown.stdout + shown.stderr
        made = CODE.search(shown.stdout)
        assert made, shown.stdout
        assert f"--code {made[1]}" in shown.stdout and "devices.html" in shown.stdout
        ann_key, bob_before = load_player_key(ann), load_player_key(bob)
        assert ann_key not in shown.stdout
        # Bob's terminal, which had a key of its own, signs in as Ann with the code.
        typed = made[1].lower().replace("-", " ")
        with person("xand0", relay, None, "--code", typed, "--player-key-file", str(bob)) as me:
            me.expect_exact("Signed in: this terminal now plays as your player")
            me.expect(r"had before is kept in (\S+\.before-\S+) \(--player-key-file \1 plays")
            kept = Path(me.match[1])
            me.expect(r"\n  (\S+)  your turn, (23 hours \d+ minutes|1 day) left   --resume \1\r\n")
            match = me.match[1]
            me.expect(pexpect.EOF)
            me.close()
            assert me.exitstatus == 0
            transcript = me.transcript.getvalue()
        assert load_player_key(bob) == ann_key and kept.read_text().strip() == bob_before
        assert ann_key not in transcript and bob_before not in transcript
        with person("xand0", relay, None, "--resume", match, "--player-key-file", str(bob)) as me:
            me.expect(r"Time left: you")
            verdict = play_out(me)
        out, _ = bot.communicate(timeout=30)
    assert verdict in ("You win", "You lose", "A draw")
    assert out.startswith("X and 0 bot (level 1, ")
    # The code worked once.
    again = xand0(relay, "--code", made[1], "--player-key-file", str(tmp_path / "carl.key"))
    assert again.returncode == 1
    assert again.stdout == f"Could not sign in: {WORDS['code/unknown']}\n"
    assert not (tmp_path / "carl.key").exists()


def test_a_wrong_or_malformed_code_is_said_plainly(relay: str, tmp_path: Path) -> None:
    key = tmp_path / "key"
    wrong = xand0(relay, "--code", "ABCDE-FGHJK", "--player-key-file", str(key))
    assert (wrong.returncode, wrong.stdout) == (1, f"Could not sign in: {WORDS['code/unknown']}\n")
    assert "no such code: mistyped, used already, or older than 5 minutes" in wrong.stdout
    malformed = xand0(relay, "--code", "ABCDE-0")
    assert malformed.returncode == 2
    assert "argument --code: a transfer code is 10 letters and digits" in malformed.stderr
    together = xand0(relay, "--code", "ABCDE-FGHJK", "--games")
    assert together.returncode == 2 and "--games and --code cannot go together" in together.stderr
    nothing = xand0(relay, "--show-code", "--player-key-file", str(key))
    assert nothing.returncode == 1 and nothing.stdout.startswith(f"No player key in {key} yet")
    assert not key.exists()


def test_a_relay_without_passkeys_says_it_offers_no_codes(tmp_path: Path) -> None:
    key = tmp_path / "key"
    key.write_text("k" * 43 + "\n")
    with quick_relay() as plain:
        signing = xand0(plain, "--code", "ABCDE-FGHJK", "--player-key-file", str(key))
        showing = xand0(plain, "--show-code", "--player-key-file", str(key))
    off = WORDS["passkey/off"]
    assert (signing.returncode, signing.stdout) == (1, f"Could not sign in: {off}\n")
    assert (showing.returncode, showing.stdout) == (1, f"Could not make a code: {off}\n")
    assert key.read_text() == "k" * 43 + "\n"
