"""Online play: the ASGI server, its rooms, its protocol and its fairness checks.

`create_app(settings)` makes the application; `hraj serve` runs it on uvicorn with
an embedded SQLite store; `hraj verify RECORD` checks a finished room's dice and cards.
"""
