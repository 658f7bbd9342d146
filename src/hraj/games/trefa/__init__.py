"""Trefa: the six-dice "hit" roll-and-write of seed 001."""
