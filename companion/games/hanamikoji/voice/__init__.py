"""Hanamikoji by voice: listening contexts, grammars, spoken words, and the hooks the core
asks for (hooks.py)."""
