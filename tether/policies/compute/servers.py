"""Policy rules of the compute API: servers (being written)."""

rules = []


def list_rules():
    return rules
