"""Talk at the table: chat lines and /roll, and the campaign's table socket."""
