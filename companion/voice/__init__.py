"""Offline voice commands: grammars per game context, recognition, canonical text."""
