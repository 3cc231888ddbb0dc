"""Policy rules of the compute API: hypervisors (being written)."""

rules = []


def list_rules():
    return rules
