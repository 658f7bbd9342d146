"""Online play: the ASGI server, its rooms, its protocol and its fairness checks.

`app.create_api(settings)` makes the API's application (HTTP and WebSocket, no pages);
`hraj.app` adds the web's pages to it, and its `hraj serve` runs the whole on uvicorn
with an embedded SQLite store; `hraj verify RECORD` checks a finished room's dice and cards.
"""
