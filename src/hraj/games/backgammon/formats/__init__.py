"""Backgammon's exchange formats: gnubg Position ID and Match ID, XGID, `.mat` files."""
