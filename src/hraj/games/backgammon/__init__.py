"""Backgammon (vrhcáby): rules, notation and bots; file formats live in `formats`."""
