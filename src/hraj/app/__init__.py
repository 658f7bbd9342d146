"""The application hraj serves: the server's API and the web's pages, composed.

The server (`hraj.server`) knows no pages and the web (`hraj.web`) builds no application:
`site.create_app(settings)` puts the pages and their static files on the server's API,
so that imports point one way (app → web → server). `commands` holds `hraj serve`, which
runs it, and `hraj verify`, `hraj backup` and `hraj restore`; `python -m hraj.app serve` runs them alone.
"""
