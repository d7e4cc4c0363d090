"""Markers for tests that need an optional part installed, each saying why it skips."""

from __future__ import annotations

import importlib.util

import pytest


def installed(module: str) -> bool:
    try:
        return importlib.util.find_spec(module) is not None
    except ImportError:  # a parent package missing, or an import hook refusing it
        return False


needs_pocketsphinx = pytest.mark.skipif(
    not installed("pocketsphinx"),
    reason="pocketsphinx is not installed (the voice extra: pip install '.[voice]')")
