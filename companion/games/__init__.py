"""Rules engines, one sub-package per game; each is pure (no I/O)."""
