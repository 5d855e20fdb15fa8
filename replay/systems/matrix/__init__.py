"""Matrix Hockey's library for the ``rinklog matrix`` commands: league and picks files
(``files``), the season commands over a store (``season``)."""
