"""`python -m bench.lighthouse`: Lighthouse's desktop audit of the lobby, on a relay of its own
that has open seeks, live matches and finished ones: performance, CLS and SEO, median of runs.

Lighthouse is an npm package, installed once under .cache (never in the test suite: a run takes
about 15 s): `npm install --prefix .cache/lighthouse lighthouse`. It drives Debian's Chromium
(`CHROME_PATH`, else /usr/bin/chromium), headless."""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import urllib.request
from pathlib import Path
from typing import Any

from bench import targets

__all__ = ["Audit", "audit", "busy_lobby", "main"]

ROOT = Path(__file__).resolve().parents[1]

LIGHTHOUSE = ROOT / ".cache" / "lighthouse" / "node_modules" / ".bin" / "lighthouse"
"""Where `npm install --prefix .cache/lighthouse lighthouse` puts the command."""

NOT_INSTALLED = (
    "Lighthouse is not installed: run `npm install --prefix .cache/lighthouse lighthouse`"
)

RUN_TIMEOUT = 120.0
"""The longest one Lighthouse run may take, in seconds: a hung Chromium fails by name."""

LOAD_MS = 8000
"""How long Lighthouse watches the page load, in ms. The lobby's long polls never let the network
go quiet, so Lighthouse would wait its 45 s and warn that the page "loaded too slowly"; it warns
after these 8 s too, when everything but the held polls is long done."""

GAMES = ("connect4", "dots", "xand0")
"""The example games a busy lobby has seeks and matches of."""

Audit = dict[str, Any]
"""One run's figures: performance (0 to 100), cls, lcp_ms, tbt_ms, fcp_ms, si_ms, seo."""


def _call(base: str, path: str, body: object = None, token: str | None = None) -> Any:
    """Sends one request to the relay; returns its decoded JSON answer."""
    headers = {"Content-Type": "application/json"}
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    request = urllib.request.Request(
        base + path,
        data=None if body is None else json.dumps(body).encode(),
        headers=headers,
        method="GET" if body is None else "POST",
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.loads(answer.read())


def busy_lobby(base: str, games: tuple[str, ...] = GAMES, live: int = 2) -> None:
    """Fills the lobby of the relay at base: for each game, `live` live public matches of named
    players, one finished (resigned) and an open public seek. The relay must keep a seeker that
    does not poll (`--seek-grace` longer than the measure) and a seat that stops (`--grace`)."""
    for game in games:
        seek = {"game": game, "version": "1", "public": True}
        for number in range(live + 1):
            # Two public seeks meet; seat 0 polls again, as a live client does: that starts it.
            first = _call(base, "/v1/seek", {**seek, "name": f"Bea {number}"})
            _call(base, "/v1/seek", {**seek, "name": f"Cy {number}"})
            _call(base, f"/v1/matches/{first['match']}/events?after=0&wait=0", token=first["token"])
            if number == live:
                _call(base, f"/v1/matches/{first['match']}/resign", {}, token=first["token"])
        _call(base, "/v1/seek", {**seek, "name": "Ada"})


def _figures(report: dict[str, Any]) -> Audit:
    """Returns one Lighthouse report's figures."""
    audits = report["audits"]
    categories = report["categories"]

    def score(name: str) -> int | None:
        value = categories.get(name, {}).get("score")
        return None if value is None else round(value * 100)

    return {
        "performance": score("performance"),
        "seo": score("seo"),
        "cls": round(audits["cumulative-layout-shift"]["numericValue"], 3),
        "lcp_ms": round(audits["largest-contentful-paint"]["numericValue"]),
        "tbt_ms": round(audits["total-blocking-time"]["numericValue"]),
        "fcp_ms": round(audits["first-contentful-paint"]["numericValue"]),
        "si_ms": round(audits["speed-index"]["numericValue"]),
        "meta_description": audits["meta-description"]["score"] == 1,
    }


def audit(url: str, chrome: str) -> Audit:
    """Runs Lighthouse once on url (desktop preset, headless Chromium); returns its figures."""
    if not LIGHTHOUSE.exists():
        raise SystemExit(NOT_INSTALLED)
    with tempfile.TemporaryDirectory(prefix="bench-lighthouse-") as folder:
        out = Path(folder) / "report.json"
        command = [
            str(LIGHTHOUSE), url, "--preset=desktop", "--only-categories=performance,seo",
            "--output=json", f"--output-path={out}", "--quiet", f"--max-wait-for-load={LOAD_MS}",
            "--chrome-flags=--headless=new --no-sandbox --disable-gpu",
        ]  # fmt: skip
        env = {**os.environ, "CHROME_PATH": chrome, "TMPDIR": folder}
        subprocess.run(command, env=env, check=True, timeout=RUN_TIMEOUT)
        figures: Audit = _figures(json.loads(out.read_text()))
    return figures


def median(runs: list[Audit]) -> Audit:
    """Returns each figure's median over runs (the first run's meta_description)."""
    found: Audit = {}
    for name, value in runs[0].items():
        values = [run[name] for run in runs]
        numbers = isinstance(value, (int, float)) and not isinstance(value, bool)
        found[name] = statistics.median(values) if numbers else value
    return found


def main(argv: list[str] | None = None) -> None:
    """Runs Lighthouse `--runs` times on the lobby (and once on each other page with --pages),
    prints each run's figures and their median as JSON."""
    parser = argparse.ArgumentParser(prog="python -m bench.lighthouse", description=__doc__)
    parser.add_argument("--runs", type=int, default=3, help="runs on the lobby (default: 3)")
    parser.add_argument(
        "--pages", action="store_true", help="audit replay.html and the game pages once too"
    )
    parser.add_argument("--chrome", default=os.environ.get("CHROME_PATH") or "", help="Chromium")
    a = parser.parse_args(argv)
    chrome = a.chrome or shutil.which("chromium") or "/usr/bin/chromium"
    flags = ("--seek-grace", "600", "--log-level", "error")
    with targets.relay("relay, memory, for Lighthouse", flags=flags) as relay:
        base = f"http://127.0.0.1:{relay.ports[0]}"
        busy_lobby(base)
        runs = []
        for number in range(a.runs):
            runs.append(audit(f"{base}/", chrome))
            print(f"lobby, run {number + 1}: {json.dumps(runs[-1])}", file=sys.stderr)
        result: dict[str, Any] = {"lobby": median(runs), "runs": runs}
        if a.pages:
            for page in ("replay.html", "xand0.html", "connect4.html", "dots.html"):
                result[page] = audit(f"{base}/{page}", chrome)
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
