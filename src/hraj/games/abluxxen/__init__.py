"""Abluxxen (Kořist): capture your opponents' sets, keep your own on the table."""
