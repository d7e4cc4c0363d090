"""Every input, into one queue for the session: typed and scripted lines (hub.py), card
readers and keypads (devices.py, with scan_echo.py), and voice (voice.py). A game says
what its keys and scans mean through its device and voice hooks."""
