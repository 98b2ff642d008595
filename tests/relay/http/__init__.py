"""Tests of the protocol over HTTP: the front, its reader, aiohttp, pages (relay/http)."""
