"""DICE Hockey (1st edition, 2009): the pure rules engine, one module per rule area.

``cards`` (cards, the chart pack), ``dice`` (two d10), ``state`` (the game between two
events, the next step), ``lines`` (slots, change windows, rotation: 9-11, 15), ``puck``
(possession, timing spaces, the whistle), ``faceoffs`` (6), ``passing`` (7, 8, 20, 21C,
21D, 22), ``shots`` (8, 19, 20, 22), ``turnovers`` (9, 19, 21B, 22: the Turnover chart and
dumps), ``penalties`` (15), ``specials`` (16-18), ``periods`` (12-14), ``coach`` (the
default coach), ``game`` (``initial_state``, ``decide``, ``evolve``, ``check_choice``)
and ``system``: ``SYSTEM``, the system's registration object, which engine/systems.py
lists (its rules run through the one game loop, engine/loop.py).
"""
