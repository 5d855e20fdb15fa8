"""A league's postseason rules, pure (issue 22): the playoff format and bracket (Hockey
Bones draft league rule 9), goalie eligibility for the playoffs (rule 27) and the draft
lottery (rule 31). Their events are ``events.postseason``.

No I/O and no randomness: the standings come in as an ordered team list (rule 29's
tie-breaks already applied by ``projections.standings``), game winners as results, dice
as numbers or a callable. Not yet wired into the CLI, the store, the audit or the pages:
see docs/postseason.md.

- ``engine.league.formats``: a ``[playoffs]`` table checked against the league, resolved.
- ``engine.league.playoffs``: the bracket as decide/evolve (series, rounds, champion).
- ``engine.league.playoff_goalies``: rule 27's series limits and the default starter.
- ``engine.league.lottery``: rule 31's draw.
"""
