"""The memory store: every match in this process, nothing to install or start."""
