"""The shared read-model types: what every game system's folds return (projections/<system>/),
what the store keeps (projections/store.py) and what every command and page shows. Imports
no system's events."""
