"""What a member reads at the table, always through the gate: the cards (rendered once
per audience), the log, the running scene and session, and the exports."""
