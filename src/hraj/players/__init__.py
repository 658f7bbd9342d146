"""People: guests and accounts, their sessions, and their ratings.

Pure logic over the store: it imports neither the server nor any game. The server
calls it and the pages show what it finds; a rating reads a finished game's `Outcome`
(the placements, a match's score), never its rules.
"""
