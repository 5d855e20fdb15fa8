"""The Hockey Bones rules engine: pure Python, which the build compiles with mypyc where
it can (setup.py; engine/__init__.py decides which one plays; the same events either way).

``SYSTEM`` is the system's registration object (engine/bones/system.py), which
engine/systems.py lists."""
