"""One action's view of the table: the scene and session state it reads and writes, the
table's own state changes, the earlier event it names, and whom a whisper is for."""
