"""Pure rules for the five game systems: no Django, no I/O, no hidden randomness.

Every action is a function of (request, faces) -> outcome. Faces are drawn in
one place (`rules.kit.faces.DrawnFaces` over `secrets.SystemRandom`) and recorded,
so any logged roll can be resolved again from its request and faces.
"""
