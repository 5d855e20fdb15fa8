"""Matrix Hockey: rinklog as the referee of a league played by mail (one stream a season).

One module per rule area: ``goals`` (2.1), ``extra_time`` (2.2), ``onr`` (3.1.3, 4),
``standings`` (3.1.5), ``schedule`` (3.1.1), ``kdh`` (3.2), ``wg`` (3.3), ``seasons``
(2.1.2.1, 2.1.3.1, 3.1.6); ``state`` holds the season and ``evolve``; ``referee`` is the
one loop (open, play a week, close) that asks the dice and returns the events.
``SYSTEM`` (``system``) is the season system's registration object, which
engine/systems.py lists.
"""
