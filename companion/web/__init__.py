"""The table as a live web page (`companion play --web`): see server.py. Imported only when
--web is given."""
