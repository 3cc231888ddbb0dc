"""Policy rules of the compute API: flavors (being written)."""

rules = []


def list_rules():
    return rules
