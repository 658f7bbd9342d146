"""Learning agents on hraj's games: action ids, observations, and adapters for
PettingZoo, Gymnasium and OpenSpiel (the optional `rl` extra installs them).

`hraj.rl.codec` needs only NumPy; the adapters import their library when used.
"""

from hraj.rl.codec import Codec, codec, codec_for, legal_mask, observe

__all__ = ["Codec", "codec", "codec_for", "legal_mask", "observe"]
