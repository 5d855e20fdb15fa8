"""Matrix Hockey's season page and its odds page."""
