"""Matrix Hockey at the season layer: the season commands over a store (``season``),
the demo managers (``demo``) and its odds (``odds``)."""
