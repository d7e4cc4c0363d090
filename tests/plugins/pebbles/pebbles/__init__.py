"""Pebbles: a deliberately tiny third game, shipped as its own plugin package.

It proves that a game plugs into the companion without any file outside its folder knowing
it: two players take one to three pebbles in turn from a pile; whoever takes the last one
wins. It has typed words, keypad digits, a scannable token per move and four catalogues.
"""
