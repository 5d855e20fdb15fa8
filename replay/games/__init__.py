"""One game: its setup, play, store, resume and branch (refold), and its words (explain).
Nothing here knows of seasons: a season game is recorded and audited by replay/leagues/."""
