"""The browser UI: server-rendered pages and game tables, a small first-party JS client.

`pages.router` serves the start page, rooms, replays and rules pages; `STATIC_DIR` holds
the CSS and JS that `hraj.app.site` mounts under `/static`, beside the server's API.
"""

from pathlib import Path

STATIC_DIR = Path(__file__).parent / "static"
TEMPLATE_DIR = Path(__file__).parent / "templates"
