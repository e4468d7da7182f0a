"""The write path: every change of table state validated, resolved, logged in one
transaction and broadcast (actions.perform), and the apps below heard through it."""
