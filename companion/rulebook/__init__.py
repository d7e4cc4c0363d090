"""The rulebook by ear: a game's rules as short sections, read and searched aloud.

The rule texts belong to each game (its `locales/rules/{lang}.toml`, found through the
game's `locales()` hook); this package names no game. `book` loads and searches a
rulebook, `navigator` turns a reader's lines into Messages, `moment` says which section
explains what a game in progress is asking for.
"""
