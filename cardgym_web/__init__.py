"""The browser table: ``cardgym serve`` (the ``web`` extra).

Play any registered game in a browser against bots or other people, watch games as a
spectator, and replay game records move by move from any seat. The server holds every
game; a browser only ever receives the table view (:mod:`cardgym.table`) of its own seat,
or the spectator's, and the picture drawn from it (:mod:`cardgym.picture`).

* :mod:`cardgym_web.table`: one game at a table, its seats and tokens, every check of a
  move; no web framework.
* :mod:`cardgym_web.hub`: the tables of a server, their locks, bots thinking in worker
  threads, idle tables closed, records written.
* :mod:`cardgym_web.replays`: records played again for the replay page.
* :mod:`cardgym_web.seats`: which agents a browser may seat.
* :mod:`cardgym_web.app`: the Starlette app: pages, JSON API, websockets.
* :mod:`cardgym_web.command`: ``cardgym serve``.

The pages (``static/``) are plain HTML, CSS and JavaScript: nothing to build, nothing
fetched from elsewhere. docs/serve.md describes the pages, the API and the messages.
"""
