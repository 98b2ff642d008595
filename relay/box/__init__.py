"""The box's /metrics under `--workers N`: the supervisor asks every worker for its own and
serves their sum on an address of its own. Imports `relay.api` (which families are shared)."""
