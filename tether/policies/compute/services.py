"""Policy rules of the compute API: services (being written)."""

rules = []


def list_rules():
    return rules
