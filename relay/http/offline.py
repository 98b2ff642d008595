"""The list the pages' service worker keeps for offline use (relay/pages/service-worker.js):
every file served at /, under a version that is a hash of their contents, so that a relay or
game package that changes any page replaces the browsers' copies."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Mapping

__all__ = ["OFFLINE_FILES", "WORKER", "offline_files"]

OFFLINE_FILES = "/offline-files.js"
"""Where the list is served: beside the service worker, which imports it (importScripts)."""

WORKER = "/service-worker.js"
"""The service worker; served from the pages' root so that its scope is all of them."""

LEFT_OUT = frozenset({OFFLINE_FILES, WORKER, "/"})
"""Never in the list: the worker and its list (the browser checks them for updates itself),
and '/' (listed as './', the lobby)."""


def offline_files(etags: Mapping[str, str]) -> bytes:
    """Returns the script that names the files the service worker keeps (of `etags`, each
    served file's URL path and ETag), each relative to the pages' root ('./' is the lobby),
    and their version: a hash of every file's path and ETag."""
    kept = sorted(url for url in etags if url not in LEFT_OUT)
    digest = hashlib.sha256()
    for url in kept:
        digest.update(f"{url}\n{etags[url]}\n".encode())
    files = ["./", *(url.removeprefix("/") for url in kept)]
    listed = json.dumps({"version": digest.hexdigest()[:16], "files": files}, indent=1)
    text = (
        "// Written by the relay (relay/http/offline.py): the pages the service worker keeps.\n"
        f"self.OFFLINE = {listed};\n"
    )
    return text.encode()
