"""Live delivery: the rendered cards to every socket that may see them, the database
thread the sockets work in, and the limits per user and campaign."""
