"""The ``rinklog`` command line: thin commands over the library in replay/ (the root is
app.py, its ``main`` the console script)."""
