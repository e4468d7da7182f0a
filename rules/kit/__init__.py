"""What the games share: dice, faces, requests, errors, sheet declarations, the Action
type, the odds machinery and the Cortex family's core. Nothing here names one game's
slug; each game package under `rules/` builds on it."""
