"""The guided first game (`companion learn`): a practice game in which each step is
explained, briefly, the first time it happens (companion/learn/guide.py). The lessons
belong to each game (its `locales/learn/{lang}.toml`); this package names no game."""
