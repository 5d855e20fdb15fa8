"""Read models: pure folds of the event streams (never the engine).

- ``projections/<system>/`` (bones, dicehockey, matrix): a system's folds and its one
  registration (``PROJECTIONS``, projections/registration.py);
- ``projections/models/``: the shared read-model types every system's folds return, and a
  game time (a number with a unit);
- ``projections/systems.py``: the registry, one line a system;
- ``scoresheet``, ``toi``, ``penalties``, ``stats``: the shared types and the fold of any
  game by its system; ``standings`` (common events only), ``index`` (a stream's index) and
  ``store`` (the stored ``rm_`` tables) are shared outright.

The folds are compiled with the engine's build (setup.py); importing ``projections`` runs
the build's one check (events/build.py): a stale or ``RINKLOG_PURE`` build runs the ``.py``
folds, as it plays the ``.py`` engine.
"""

from pathlib import Path

from events.build import guard

# the build record is the engine's beside this package (engine/compiled.json)
guard(Path(__file__).resolve().parent.parent / "engine")
